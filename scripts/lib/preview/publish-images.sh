#!/usr/bin/env bash
# Publishes one pull request's verified chart images on the pr-previews branch and prunes the images of pull
# requests that are no longer open. Run by the trusted comment job (.github/workflows/preview-comment.yml) with
# the default branch's code only; the images were decoded and checked by `scripts/lib/preview/cli.mjs comment`.
# The branch keeps no history: every run pushes one new root commit holding the images of the open pull
# requests (each at its latest commit), so a closed pull request's images leave the repository. Two runs at once
# cannot undo each other: the push is accepted only if the branch is still what this run started from
# (--force-with-lease), and a run that lost the race starts again.
# Environment: REMOTE (git URL), OPEN_PRS (open pull request numbers, one per line), IMAGES (directory of *.png),
# PR and HEAD_SHA (the pull request and commit the images belong to; both empty to prune only).
set -euo pipefail
: "${REMOTE:?}" "${IMAGES:=}" "${PR:=}" "${HEAD_SHA:=}" "${OPEN_PRS:=}"
case "$PR" in '') ;; *[!0-9]*) echo "publish-images: PR is not a number" >&2; exit 2 ;; esac
[ -z "$PR" ] || [[ "$HEAD_SHA" =~ ^[0-9a-f]{40}$ ]] || { echo "publish-images: HEAD_SHA is not a commit" >&2; exit 2; }
git_() { git -c user.name="github-actions[bot]" -c user.email="41898282+github-actions[bot]@users.noreply.github.com" -c advice.detachedHead=false "$@"; }

publish_once() {
  local work lease="" before=""
  work=$(mktemp -d)
  trap 'rm -rf "$work"' RETURN
  cd "$work"
  git_ init -q
  git_ remote add origin "$REMOTE"
  if git_ fetch -q --depth 1 origin pr-previews 2>/dev/null; then
    lease=$(git rev-parse FETCH_HEAD)
    before=$(git rev-parse 'FETCH_HEAD^{tree}')
    git_ checkout -q FETCH_HEAD -- .
  fi
  shopt -s nullglob
  for d in pr-*; do
    n=${d#pr-}
    grep -qx -- "$n" <<<"$OPEN_PRS" || git_ rm -rqf -- "$d"
  done
  if [ -n "$PR" ]; then
    git_ rm -rqf --ignore-unmatch -- "pr-$PR"
    rm -rf -- "pr-$PR"
    mkdir -p "pr-$PR/$HEAD_SHA"
    for png in "$IMAGES"/*.png; do
      [[ "$(basename "$png")" =~ ^[a-z0-9-]+\.png$ ]] && [ -f "$png" ] && [ ! -L "$png" ] && cp -- "$png" "pr-$PR/$HEAD_SHA/"
    done
    git_ add -- "pr-$PR"
  fi
  local tree
  tree=$(git_ write-tree)
  if [ "$tree" = "$before" ]; then echo "publish-images: nothing to change"; return 0; fi
  local commit
  commit=$(git_ commit-tree "$tree" -m "Preview images of the open pull requests${PR:+ (updated: #$PR at $HEAD_SHA)}")
  git_ push -q --force-with-lease="pr-previews:$lease" origin "$commit:refs/heads/pr-previews"
  echo "publish-images: pushed $commit ($(git ls-tree -d --name-only "$tree" | tr '\n' ' '))"
}

for attempt in 1 2 3; do
  # A subshell that is not an if-condition, so `set -e` holds inside it; the loop itself must go on.
  set +e
  (set -e; publish_once)
  rc=$?
  set -e
  [ "$rc" -ne 0 ] || exit 0
  echo "publish-images: attempt $attempt failed (another run may have moved the branch); starting again" >&2
  sleep $((attempt * 2))
done
echo "publish-images: could not update pr-previews after 3 attempts" >&2
exit 1
