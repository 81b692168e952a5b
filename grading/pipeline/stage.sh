# shellcheck shell=bash disable=SC2034 # its settings are the stages'
# What the stages of the pipeline share (grading/pipeline/run runs them,
# grading/pipeline/stages/NN-NAME, in order). A stage is a program; it
# reads the pipeline's settings from its environment (PIPE_MODE check or
# grade, PIPE_DIR the folder it writes, PIPE_LAB, PIPE_ONLY, PIPE_ID,
# PIPE_FOLDER, PIPE_SLOT, PIPE_RUBRIC, PIPE_EXTRA, PIPE_T0) and the earlier
# stages' work from their files in PIPE_DIR, never from their messages.
# Its exit status: 0, go on; STAGE_DECIDED, the submission's verdict is
# decided (it does not apply, does not build...): go to scoring; EX_KIT
# (kit_fault), the machine stopped it, with the cause and the fix in
# stages/kit-error; any other, a tool of the kit failed. In the last two
# cases no verdict is written: the submission is not graded (kit error).
# Its first lines say what it leaves in PIPE_DIR ("# leaves: PATTERN...",
# relative to it): a replay from a stage (run --from) removes what that
# stage and the later ones left, and keeps the earlier stages' files.
# shellcheck source=lib/kit.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../lib/kit.sh"

STAGE_DECIDED=10
mode=${PIPE_MODE:-} d=${PIPE_DIR:-} lab=${PIPE_LAB:-} only=${PIPE_ONLY:-}
id=${PIPE_ID:-} folder=${PIPE_FOLDER:-} slot=${PIPE_SLOT:-}
rubric=${PIPE_RUBRIC:-} extra=${PIPE_EXTRA:-}
rubric_args=()
[ -z "$rubric" ] || rubric_args=(--rubric "$rubric")
# The stage's name: its file's, without the number.
STAGE=${STAGE:-$(basename "$0")}
STAGE=${STAGE#[0-9][0-9]-}

# meta_line KEY VALUE: one line of DIR/meta (KEY<TAB>VALUE, one line).
meta_line() { printf '%s\t%s\n' "$1" "$(printf '%s' "$2" | tr '\t\n' '  ' | cut -c1-390)"; }
# meta KEY VALUE: a line on what was graded, in DIR/meta and in the
# stage's own stages/NAME.meta (from which a replay makes DIR/meta again).
meta() { meta_line "$1" "$2" | tee -a "$d/stages/$STAGE.meta" >>"$d/meta"; }
# meta_get KEY: the last value of KEY in DIR/meta.
meta_get() { meta_value "$d/meta" "$1"; }
# say MESSAGE: the stage's progress line (make grade: tagged with the
# student and the worker's place).
say() {
	if [ "$mode" = grade ]; then
		printf '    [%s] %s\n' "${PROGRESS:+$PROGRESS }$id" "$*" >&2
	else
		stage "$@"
	fi
}
# decided: the stage has written the submission's verdict; score it.
decided() { exit "$STAGE_DECIDED"; }
# kit_fault CAUSE FIX [EVIDENCE]: the machine, not the submission, stopped
# this stage (lib/kit.sh's EX_KIT): its record in DIR/stages/kit-error, and
# no verdict; the pipeline publishes the submission as not graded.
kit_fault() {
	kit_error_record "$d/stages/kit-error" "$STAGE" "$1" "$2" "${3:-}"
	exit "$EX_KIT"
}
