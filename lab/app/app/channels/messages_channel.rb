# The Action Cable channel of the WebSocket proofs: subscribers receive what POST /broadcasts sends.
class MessagesChannel < ApplicationCable::Channel
  STREAM = "lab_messages".freeze

  def subscribed
    stream_from STREAM
  end
end
