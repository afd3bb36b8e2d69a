# A file download through send_file: with config.action_dispatch.x_sendfile_header set (RAILS_X_SENDFILE_HEADER),
# the proxy sends the bytes (X-Accel-Redirect for nginx, X-Sendfile for Apache) and the Ruby process is free at once.
class DownloadsController < ActionController::API
  include ActionController::DataStreaming

  SIZE = 1024 * 1024

  def show
    path = Rails.root.join("storage", "download.bin")
    File.binwrite(path, Random.new(2010).bytes(SIZE)) unless File.size?(path) == SIZE
    send_file path, type: "application/octet-stream", filename: "download.bin"
  end
end
