#!/bin/sh
# mkman.sh FLIPSIM > flipsim.1: flipsim's man page, made from its own --help
# texts so that it cannot drift from them: the top-level help as the
# synopsis and description, one section per command with that command's
# --help verbatim, then the environment, files and exit status. `make
# install` installs it; tests/install.sh checks that every command of
# `flipsim --help` has its section. POSIX sh and awk.
set -eu
if [ $# -ne 1 ] || [ ! -x "$1" ]; then
	echo "usage: $0 FLIPSIM" >&2
	exit 2
fi
f=$1
version=$("$f" --version | awk '{ print $2 }')
# roff: a backslash doubled, a leading dot or quote escaped
esc() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }
commands=$("$f" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1; next } on && !/^  / { on = 0 }')

cat <<HEAD
.TH FLIPSIM 1 "" "flipsim $version" "User Commands"
.SH NAME
flipsim \- statistical fault injection on an embedded GPU SM simulator
.SH SYNOPSIS
HEAD
echo ".nf"
for c in $commands; do
	"$f" "$c" --help | awk 'NR == 1, /^$/' | sed -e '/^$/d' -e 's/^usage: //' -e 's/^       //' | esc
done
echo ".fi"
cat <<'DESC'
.SH DESCRIPTION
flipsim runs real GPU kernels (PTX, or host programs on its C API or the
CUDA runtime) on a cycle-level model of a GPU's streaming multiprocessors,
injects faults (bit flips and other fault models) into its structures
(register file, predicates, shared memory, SIMT stack, instruction buffer,
functional units, caches), classifies every experiment against a golden run
as Masked, SDC or DUE, stores it in SQLite, and reports AVF, FIT and MITF.
The README of the source distribution has the whole manual; this page has
every command's options as its \fB\-\-help\fR prints them.
DESC
echo ".SH COMMANDS"
for c in $commands; do
	echo ".SS $c"
	echo ".nf"
	"$f" "$c" --help | esc
	echo ".fi"
done
cat <<'TAIL'
.SH ENVIRONMENT
.TP
.B FLIPSIM_PTXAS
the ptxas that \fBprofile \-\-regs alloc\fR compares with (empty: none)
.TP
.B FLIPSIM_PASS
a diagnostic pass applied to every module loaded (tests only)
.TP
.B FLIPSIM_MAX_REGS
registers per thread the allocation must fit (tests only)
.TP
.B TMPDIR
where golden records and experiment outputs are kept while a campaign runs
.SH FILES
.TP
.I flipsim.db
the results database \fBrun\fR writes by default (SQLite; its schema is in
db/README.md of the source distribution)
.SH EXIT STATUS
TAIL
"$f" --help | awk '/^exit status:/ { on = 1; next }
	on && /^  [0-9]/ { sub(/^  /, ""); n = $1; sub(/^[0-9]+ +/, ""); gsub(/\\/, "\\e"); print ".TP"; print ".B " n; print }' 
cat <<'END'
.SH SEE ALSO
.BR sqlite3 (1),
.BR sbatch (1)
END
