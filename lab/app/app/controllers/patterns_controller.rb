# The Rails code patterns the research compared, one route each, so a load generator can time them side by side.
# Every action returns a small text body with a count, so a wrong answer is visible, not just a slow one.
class PatternsController < ActionController::API
  ROWS = 100

  PATTERNS = %w[n_plus_one eager preload all_each find_each transaction_per_row transaction_single
                dynamic_finder where].freeze

  def show
    name = params[:name]
    return head(:not_found) unless PATTERNS.include?(name)

    render plain: "#{name} #{send("pattern_#{name}")}\n"
  end

  private

  # N+1: one query for the posts, then one per post for its author.
  def pattern_n_plus_one
    Post.order(:id).limit(ROWS).sum { |post| post.author.name.length }
  end

  # Eager loading: two queries (or one JOIN) whatever the number of posts.
  def pattern_eager
    Post.includes(:author).order(:id).limit(ROWS).sum { |post| post.author.name.length }
  end

  def pattern_preload
    Post.preload(:author).order(:id).limit(ROWS).sum { |post| post.author.name.length }
  end

  # Loads every comment into memory at once.
  def pattern_all_each
    count = 0
    Comment.all.each { |comment| count += comment.body.length }
    count
  end

  # Loads comments in batches of 1000 by primary key.
  def pattern_find_each
    count = 0
    Comment.find_each { |comment| count += comment.body.length }
    count
  end

  def pattern_transaction_per_row
    write_rows { |batch| ROWS.times { |i| ScratchRow.create!(batch: batch, position: i) } }
  end

  def pattern_transaction_single
    write_rows { |batch| ScratchRow.transaction { ROWS.times { |i| ScratchRow.create!(batch: batch, position: i) } } }
  end

  # Dynamic finders (find_by_title) still work through method_missing; `where`/`find_by` is the plain form.
  def pattern_dynamic_finder
    titles.count { |title| Post.find_by_title(title) }
  end

  def pattern_where
    titles.count { |title| Post.where(title: title).first }
  end

  def titles
    @titles ||= Post.order(:id).limit(ROWS).pluck(:title)
  end

  def write_rows
    batch = SecureRandom.hex(8)
    yield batch
    written = ScratchRow.where(batch: batch).count
    ScratchRow.where(batch: batch).delete_all
    written
  end
end
