# POST /broadcasts?message=… sends the message to every subscriber of MessagesChannel (Action Cable).
class BroadcastsController < ActionController::API
  def create
    message = params.require(:message).to_s.first(200)
    ActionCable.server.broadcast(MessagesChannel::STREAM, { message: message })
    render json: { sent: message }, status: :accepted
  end
end
