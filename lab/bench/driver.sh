#!/usr/bin/env bash
# Lab-side half of scripts/rebench: runs one batch of an experiment's plan and writes one raw output file per
# measurement. Usage: driver.sh EXPERIMENT WORKDIR PLANFILE   (WORKDIR holds params.env and raw/).
# Runs inside the lab (scripts/lab run) or, for the host's own Ruby, on the host. Every server it starts is
# stopped by process group before it exits; scripts/lab additionally stops anything left when the run ends.
set -uo pipefail
EXP=$1 WORK=$2 PLAN=$3
BENCH=$(cd "$(dirname "$0")" && pwd)
RAW="$WORK/raw"
mkdir -p "$RAW"
# shellcheck source=/dev/null
source "$WORK/params.env"
# shellcheck source=lib.sh
source "$BENCH/lib.sh"
# shellcheck source=/dev/null
source "$BENCH/exp/$EXP.sh"
trap 'rb_stop_all' EXIT
trap 'rb_log "driver: stopped by signal"; rb_stop_all; exit 143' TERM INT

rb_log "driver: $EXP batch $(basename "$PLAN") on $RB_PLACE, load average $(rb_load)"
rb_versions > "$RAW/versions-$RB_PLACE.txt"
rb_isolate
rb_speed_calibrate
if ! exp_setup; then
  rb_log "driver: setup of $EXP failed"
  while IFS=$'\t' read -r idx cell run measurements base; do
    echo "setup of the experiment failed (see driver.log)" > "$RAW/$base.failed"
  done < "$PLAN"
  exit 1
fi
while IFS=$'\t' read -r idx cell run measurements base; do
  [ -n "$idx" ] || continue
  rb_log "cell $idx: $cell run $run ($measurements) start, load $(rb_load)"
  exp_cell "$cell" "$run" "${measurements//,/ }" "$RAW/$base" || rb_log "cell $idx: $cell run $run returned an error"
  rb_log "cell $idx: $cell run $run end, load $(rb_load)"
done < "$PLAN"
exp_teardown || true
rb_log "driver: $EXP batch done"
