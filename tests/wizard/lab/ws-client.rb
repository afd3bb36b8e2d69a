# WebSocket client for the lab proof: TLS to 127.0.0.1:443 with SNI app.test (verified against the test CA),
# Action Cable handshake at /cable through nginx, subscribe to MessagesChannel, then wait for a broadcast.
# Usage: ruby ws-client.rb CA_FILE HOST MESSAGE TRIGGER_COMMAND  (prints "status=101" and "received=<message>")
require "socket"
require "openssl"
require "json"
require "websocket/driver"

ca, host, expected, trigger = ARGV
tcp = TCPSocket.new("127.0.0.1", 443)
ctx = OpenSSL::SSL::SSLContext.new
ctx.set_params(verify_mode: OpenSSL::SSL::VERIFY_PEER, ca_file: ca)
ssl = OpenSSL::SSL::SSLSocket.new(tcp, ctx)
ssl.hostname = host
ssl.sync_close = true
ssl.connect
ssl.post_connection_check(host)

Conn = Struct.new(:url, :io) { def write(data) = io.write(data) }
driver = WebSocket::Driver.client(Conn.new("wss://#{host}/cable", ssl))
driver.set_header("Origin", "https://#{host}")
identifier = { channel: "MessagesChannel" }.to_json
done = false
driver.on(:open) { driver.text({ command: "subscribe", identifier: identifier }.to_json) }
driver.on(:message) do |e|
  msg = JSON.parse(e.data)
  if msg["type"] == "confirm_subscription"
    system(trigger) or abort("trigger failed")
  elsif msg["identifier"] == identifier && msg.dig("message", "message") == expected
    puts "received=#{expected}"
    done = true
  end
end
driver.on(:close) { |e| abort("closed: #{e.code} #{e.reason}") }
driver.start
deadline = Time.now + 30
until done || Time.now > deadline
  ready = IO.select([ssl], nil, nil, 1)
  next unless ready
  data = ssl.read_nonblock(65536, exception: false)
  next if data == :wait_readable
  abort("connection ended") if data.nil?
  puts "status=#{driver.status}" if driver.respond_to?(:status) && !@printed && (@printed = true)
  driver.parse(data)
end
abort("no broadcast within 30 s") unless done
