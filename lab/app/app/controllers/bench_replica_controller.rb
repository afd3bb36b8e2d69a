# The replica experiment (scripts/rebench replica; lab/bench/replica-client.rb calls it): a write, then a read of
# the same row. With automatic role switching the POST runs on the writing role (the primary) and the GET on
# whichever role the resolver picks; each answer says which role served it and, for the read, whether the row
# written just before was there.
class BenchReplicaController < ActionController::Base
  skip_forgery_protection

  # POST /bench/replica?run=ID: one row on the primary (the session remembers the write for the resolver).
  def create
    run = params[:run].to_s
    return head(:unprocessable_entity) unless run.match?(/\A[a-z0-9-]{1,64}\z/)
    row = ScratchRow.create!(batch: "replica-#{run}", position: 0)
    render json: { id: row.id, role: ActiveRecord::Base.current_role }
  end

  # GET /bench/replica/:id: is the row there, on the role this request was given?
  def show
    render json: { found: ScratchRow.where(id: params[:id].to_i).exists?, role: ActiveRecord::Base.current_role }
  end
end
