# Rows written and removed again by the transaction patterns (one transaction against one per row).
class ScratchRow < ApplicationRecord
end
