module ApplicationCable
  # Anonymous connections: the lab has no users.
  class Connection < ActionCable::Connection::Base
  end
end
