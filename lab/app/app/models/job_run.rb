# One row per executed LabEchoJob: the end-to-end tests poll for it to prove the job runner ran the job.
class JobRun < ApplicationRecord
end
