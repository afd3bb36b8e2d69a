class ApplicationRecord < ActiveRecord::Base
  primary_abstract_class

  # The replica experiment (scripts/rebench replica) gives the app a reading role on the streaming replica; every
  # other run keeps one database for both roles.
  connects_to database: { writing: :primary, reading: :primary_replica } if ENV["LAB_REPLICA_PORT"].present?
end
