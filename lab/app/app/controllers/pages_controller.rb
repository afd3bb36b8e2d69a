# The three page types of the research's application-server tables: a small JSON response ("API"), a page that
# renders many records ("heavy") and an ordinary page with a little data ("regular").
class PagesController < ApplicationController
  HEAVY_ROWS = 200

  def api
    posts = Post.order(published_at: :desc).limit(10).pluck(:id, :title, :comments_count)
    render json: posts.map { |id, title, comments| { id: id, title: title, comments: comments } }
  end

  # ?cache=1 renders the same rows through collection caching (Solid Cache in production).
  def heavy
    @cached = params[:cache] == "1"
    @posts = Post.includes(:author).order(published_at: :desc).limit(HEAVY_ROWS)
  end

  def regular
    @post = Post.order(:id).offset(params[:n].to_i % [Post.count, 1].max).first
    @comments = @post ? @post.comments.order(:id).limit(10) : []
  end
end
