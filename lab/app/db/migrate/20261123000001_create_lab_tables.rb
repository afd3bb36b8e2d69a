# The tables behind the pages the research measured: authors with posts with comments (a blog, like the
# thesis's test application), job runs (proof that a job was executed) and scratch rows for the write patterns.
class CreateLabTables < ActiveRecord::Migration[8.1]
  def change
    create_table :authors do |t|
      t.string :name, null: false
      t.string :email, null: false
      t.timestamps
    end

    create_table :posts do |t|
      t.references :author, null: false, foreign_key: true
      t.string :title, null: false
      t.text :body, null: false
      t.integer :comments_count, null: false, default: 0
      t.datetime :published_at, null: false
      t.timestamps
    end
    add_index :posts, :title
    add_index :posts, :published_at

    create_table :comments do |t|
      t.references :post, null: false, foreign_key: true
      t.string :commenter, null: false
      t.text :body, null: false
      t.timestamps
    end

    create_table :job_runs do |t|
      t.string :token, null: false
      t.string :executed_by, null: false
      t.timestamps
    end
    add_index :job_runs, :token, unique: true

    create_table :scratch_rows do |t|
      t.string :batch, null: false
      t.integer :position, null: false
      t.timestamps
    end
    add_index :scratch_rows, :batch
  end
end
