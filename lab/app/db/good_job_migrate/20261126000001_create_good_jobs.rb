# Written by `bin/rails generate good_job:install` (good_job 4.23.1, the version in Gemfile.lock); run only when
# LAB_JOBS=good_job adds this directory to the migration paths (config/environments/production.rb).
# frozen_string_literal: true

class CreateGoodJobs < ActiveRecord::Migration[8.1]
  def change
    # Uncomment for Postgres v12 or earlier to enable gen_random_uuid() support
    # enable_extension 'pgcrypto'

    create_table :good_jobs, id: :uuid do |t|
      t.text :queue_name
      t.integer :priority
      t.jsonb :serialized_params
      t.datetime :scheduled_at
      t.datetime :performed_at
      t.datetime :finished_at
      t.text :error

      t.timestamps

      t.uuid :active_job_id
      t.text :concurrency_key
      t.text :cron_key
      t.uuid :retried_good_job_id
      t.datetime :cron_at

      t.uuid :batch_id
      t.uuid :batch_callback_id

      t.boolean :is_discrete
      t.integer :executions_count
      t.text :job_class
      t.integer :error_event, limit: 2
      t.text :labels, array: true
      t.uuid :locked_by_id
      t.datetime :locked_at
      t.integer :lock_type, limit: 2
    end

    create_table :good_job_batches, id: :uuid do |t|
      t.timestamps
      t.text :description
      t.jsonb :serialized_properties
      t.text :on_finish
      t.text :on_success
      t.text :on_discard
      t.text :callback_queue_name
      t.integer :callback_priority
      t.datetime :enqueued_at
      t.datetime :discarded_at
      t.datetime :finished_at
      t.datetime :jobs_finished_at
    end

    create_table :good_job_executions, id: :uuid do |t|
      t.timestamps

      t.uuid :active_job_id, null: false
      t.text :job_class
      t.text :queue_name
      t.jsonb :serialized_params
      t.datetime :scheduled_at
      t.datetime :finished_at
      t.text :error
      t.integer :error_event, limit: 2
      t.text :error_backtrace, array: true
      t.uuid :process_id
      t.interval :duration
    end

    create_table :good_job_processes, id: :uuid do |t|
      t.timestamps
      t.jsonb :state
      t.integer :lock_type, limit: 2
    end

    create_table :good_job_settings, id: :uuid do |t|
      t.timestamps
      t.text :key
      t.jsonb :value
      t.index :key, unique: true
    end

    create_table :good_job_concurrency_claims, id: :uuid do |t|
      t.datetime :created_at, null: false
      t.datetime :updated_at, null: false
      t.uuid :job_id, null: false
      t.uuid :locked_by_id
      t.integer :state, limit: 2, null: false
      t.text :key, null: false

      t.index [:key, :job_id], unique: true
      t.index [:key, :state, :created_at], name: :index_good_job_concurrency_claims_for_promotion
      t.index :job_id
      t.index :locked_by_id, where: "locked_by_id IS NOT NULL"
    end

    add_index :good_jobs, :scheduled_at, where: "(finished_at IS NULL)", name: :index_good_jobs_on_scheduled_at
    add_index :good_jobs, [:active_job_id, :created_at], name: :index_good_jobs_on_active_job_id_and_created_at
    add_index :good_jobs, :concurrency_key, where: "(finished_at IS NULL)", name: :index_good_jobs_on_concurrency_key_when_unfinished
    add_index :good_jobs, [:concurrency_key, :created_at], name: :index_good_jobs_on_concurrency_key_and_created_at
    add_index :good_jobs, [:cron_key, :created_at], where: "(cron_key IS NOT NULL)", name: :index_good_jobs_on_cron_key_and_created_at_cond
    add_index :good_jobs, [:cron_key, :cron_at], order: { cron_at: "DESC NULLS LAST" },
      where: "(cron_key IS NOT NULL)", unique: true, name: :index_good_jobs_on_cron_key_and_cron_at_cond
    add_index :good_jobs, [:finished_at], where: "finished_at IS NOT NULL", name: :index_good_jobs_jobs_on_finished_at_only
    add_index :good_jobs, [:priority, :created_at], order: { priority: "ASC NULLS LAST", created_at: :asc },
      where: "finished_at IS NULL", name: :index_good_job_jobs_for_candidate_lookup
    add_index :good_jobs, [:batch_id], where: "batch_id IS NOT NULL"
    add_index :good_jobs, [:batch_callback_id], where: "batch_callback_id IS NOT NULL"
    add_index :good_jobs, :batch_id,
      where: "batch_id IS NOT NULL AND finished_at IS NULL", name: :index_good_jobs_on_batch_id_unfinished
    add_index :good_jobs, :batch_callback_id,
      where: "batch_callback_id IS NOT NULL AND finished_at IS NULL", name: :index_good_jobs_on_batch_callback_id_unfinished
    add_index :good_jobs, :job_class, name: :index_good_jobs_on_job_class
    add_index :good_jobs, :labels, using: :gin, where: "(labels IS NOT NULL)", name: :index_good_jobs_on_labels

    add_index :good_job_executions, [:active_job_id, :created_at], name: :index_good_job_executions_on_active_job_id_and_created_at
    add_index :good_job_executions, :scheduled_at, name: :index_good_job_executions_on_scheduled_at
    add_index :good_job_executions, :created_at, name: :index_good_job_executions_on_created_at
    add_index :good_jobs, [:priority, :scheduled_at, :id],
                                                      where: "finished_at IS NULL", name: "index_good_jobs_on_priority_scheduled_at_unfinished"
    add_index :good_jobs, [:queue_name, :scheduled_at, :id],
                                                      where: "finished_at IS NULL", name: "index_good_jobs_on_queue_name_priority_scheduled_at_unfinished"

    add_index :good_jobs, :locked_by_id,
      where: "locked_by_id IS NOT NULL", name: "index_good_jobs_on_locked_by_id"
    add_index :good_job_executions, [:process_id, :created_at], name: :index_good_job_executions_on_process_id_and_created_at
    add_index :good_job_batches, :finished_at,
      where: "finished_at IS NOT NULL", name: :index_good_job_batches_on_finished_at
    add_index :good_job_batches, [:created_at, :id],
      order: { created_at: :desc, id: :desc }, name: :index_good_job_batches_on_created_at_and_id
    add_index :good_jobs, [:priority, :scheduled_at, :id],
      name: :index_good_jobs_for_candidate_dequeue_unlocked,
      order: { priority: "ASC NULLS LAST", scheduled_at: :asc, id: :asc },
      where: "finished_at IS NULL AND locked_by_id IS NULL"

    add_index :good_jobs, [:queue_name, :priority, :created_at],
      name: :index_good_jobs_dequeue_by_queue,
      order: { priority: "ASC NULLS LAST", created_at: :asc },
      where: "finished_at IS NULL AND locked_by_id IS NULL"
    add_index :good_jobs, [:queue_name, :priority, :scheduled_at],
      name: :index_good_jobs_dequeue_by_queue_scheduled_at,
      order: { priority: "ASC NULLS LAST", scheduled_at: :asc },
      where: "finished_at IS NULL AND locked_by_id IS NULL"

    add_index :good_jobs, :queue_name, name: :index_good_jobs_on_queue_name
    add_index :good_jobs, :created_at, name: :index_good_jobs_on_created_at
    add_index :good_jobs, :finished_at,
      name: :index_good_jobs_on_discarded,
      order: { finished_at: :desc },
      where: "finished_at IS NOT NULL AND error IS NOT NULL"
    add_index :good_jobs, [:job_class, :finished_at],
      name: :index_good_jobs_on_discarded_job_class,
      where: "finished_at IS NOT NULL AND error IS NOT NULL"
    add_index :good_jobs, [:scheduled_at, :queue_name], name: :index_good_jobs_on_scheduled_at_and_queue_name
    add_index :good_jobs, :id,
      name: :index_good_jobs_on_unfinished_or_errored,
      where: "finished_at IS NULL OR error IS NOT NULL"
  end
end
