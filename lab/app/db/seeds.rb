# Seed data of a stated size (the README of lab/ says it too): LAB_SEED_AUTHORS authors (default 50), each with
# LAB_SEED_POSTS posts (default 20, so 1,000 posts), each with LAB_SEED_COMMENTS comments (default 5, so 5,000).
# Deterministic (fixed random seed), idempotent (does nothing when posts exist), inserted in bulk.
authors = Integer(ENV.fetch("LAB_SEED_AUTHORS", 50))
posts_per_author = Integer(ENV.fetch("LAB_SEED_POSTS", 20))
comments_per_post = Integer(ENV.fetch("LAB_SEED_COMMENTS", 5))

if Post.exists?
  puts "seeds: #{Post.count} posts already present, nothing to do"
  return
end

rng = Random.new(2010)
words = %w[rails ruby puma kernel proxy cache query index worker thread fiber process memory latency throughput
           request pool socket buffer heap garbage collector allocator benchmark jit compiler database replica]
sentence = ->(n) { Array.new(n) { words[rng.rand(words.size)] }.join(" ").capitalize + "." }
now = Time.utc(2026, 11, 1)

ActiveRecord::Base.transaction do
  Author.insert_all!(Array.new(authors) { |i| { name: "Author #{i + 1}", email: "author#{i + 1}@example.test", created_at: now, updated_at: now } })
  author_ids = Author.order(:id).pluck(:id)
  post_rows = author_ids.flat_map do |author_id|
    Array.new(posts_per_author) do |j|
      { author_id: author_id, title: "#{sentence.call(4).chomp(".")} #{author_id}-#{j}", body: Array.new(4) { sentence.call(12) }.join("\n\n"),
        comments_count: comments_per_post, published_at: now - rng.rand(365 * 86_400), created_at: now, updated_at: now }
    end
  end
  post_rows.each_slice(1000) { |slice| Post.insert_all!(slice) }
  Post.order(:id).pluck(:id).each_slice(200) do |ids|
    Comment.insert_all!(ids.flat_map { |post_id| Array.new(comments_per_post) { |k| { post_id: post_id, commenter: "Reader #{k + 1}", body: sentence.call(15), created_at: now, updated_at: now } } })
  end
end
puts "seeds: #{Author.count} authors, #{Post.count} posts, #{Comment.count} comments"
