#!/usr/bin/env bash
# tests/install.sh BUILD (`make install-test`, part of `make test`): `make
# install` into a temporary prefix, then each part as a user meets it: the
# installed flipsim runs; a host program builds with `cc prog.c
# $(pkg-config --cflags --libs simcore)` alone and runs, on its own and
# under the installed flipsim, and the same with libsimcore.a; a CUDA
# program runs on the installed runtime (with nvcc); the man page has a section for every command
# of `flipsim --help` and renders without warnings; the bash completion
# completes commands, options and GPU presets. Exit 0 when all passed, 1
# otherwise, 2 on bad usage.
set -u

if [ $# -ne 1 ]; then
	echo "usage: $0 BUILD" >&2
	exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1
cd "$root" || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/flipsim-install.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
failures=0
pass() { echo "PASS $1"; }
fail() {
	echo "FAIL $1"
	[ -s "$tmp/log" ] && sed 's/^/    /' "$tmp/log" | head -n 20
	failures=$((failures + 1))
}

if make -s install BUILD="$build" PREFIX="$prefix" >"$tmp/log" 2>&1; then pass "make install PREFIX=$prefix"
else fail "make install"; exit 1; fi
for f in bin/flipsim lib/libsimcore.a lib/libsimcore.so.0 lib/libsimcore.so lib/flipsim/libcudart.so.13 \
	include/flipsim/simcore.h lib/pkgconfig/simcore.pc \
	share/man/man1/flipsim.1 share/bash-completion/completions/flipsim; do
	if [ -s "$prefix/$f" ]; then pass "installed $f"; else : >"$tmp/log"; fail "installed $f"; fi
done
flipsim=$prefix/bin/flipsim
if "$flipsim" --version >"$tmp/log" 2>&1 && grep -q '^flipsim ' "$tmp/log"; then pass "the installed flipsim runs"
else fail "the installed flipsim runs"; fi

# ---- a host program built with pkg-config alone --------------------------------
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
if flags=$(pkg-config --cflags --libs simcore 2>"$tmp/log"); then pass "pkg-config simcore: $flags"
else fail "pkg-config knows simcore"; fi
# shellcheck disable=SC2086
if ${CC:-cc} -o "$tmp/vadd_host" tests/engine/data/vadd_host.c $flags >"$tmp/log" 2>&1; then
	pass "cc vadd_host.c \$(pkg-config --cflags --libs simcore)"
else
	fail "cc vadd_host.c \$(pkg-config --cflags --libs simcore)"
fi
if LD_LIBRARY_PATH=$prefix/lib "$tmp/vadd_host" examples/vadd/vadd.ptx >"$tmp/out" 2>"$tmp/log" && [ -s "$tmp/out" ]; then
	pass "the program runs on libsimcore.so.0: $(head -c 60 "$tmp/out")"
else
	fail "the program runs on libsimcore.so.0"
fi
if LD_LIBRARY_PATH=$prefix/lib ldd "$tmp/vadd_host" 2>/dev/null | grep -q "libsimcore.so.0 => $prefix/lib/"; then pass "it is linked to the shared library"
else LD_LIBRARY_PATH=$prefix/lib ldd "$tmp/vadd_host" >"$tmp/log" 2>&1; fail "it is linked to the shared library"; fi
# shellcheck disable=SC2046
if ${CC:-cc} -o "$tmp/vadd_static" tests/engine/data/vadd_host.c $(pkg-config --cflags simcore) \
	"$prefix/lib/libsimcore.a" -lm >"$tmp/log" 2>&1 && "$tmp/vadd_static" examples/vadd/vadd.ptx >"$tmp/out2" 2>"$tmp/log" &&
	cmp -s "$tmp/out" "$tmp/out2"; then
	pass "the same program linked with libsimcore.a prints the same"
else
	fail "the same program linked with libsimcore.a prints the same"
fi
nm -D --defined-only "$prefix/lib/libsimcore.so.0" >"$tmp/syms" 2>&1
if grep -q ' sc_gpu_create$' "$tmp/syms" && grep -q ' sc_launch$' "$tmp/syms" && ! grep -q ' sc__' "$tmp/syms"; then
	pass "libsimcore.so.0 exports the API and no internal name"
else
	grep ' sc__' "$tmp/syms" | head -3 >"$tmp/log"; fail "libsimcore.so.0 exports the API and no internal name"
fi
if LD_LIBRARY_PATH=$prefix/lib "$flipsim" profile "$tmp/vadd_host" examples/vadd/vadd.ptx >"$tmp/log" 2>&1 &&
	grep -q "vadd" "$tmp/log"; then
	pass "the installed flipsim profiles it"
else
	fail "the installed flipsim profiles it"
fi

# ---- a CUDA program on the installed runtime (lib/flipsim) ---------------------
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ -x "$nvcc" ]; then
	if "$nvcc" -cudart shared -arch=sm_75 -o "$tmp/vadd_cuda" examples/vadd/vadd_cuda.cu >"$tmp/log" 2>&1 &&
		"$flipsim" exec "$tmp/vadd_cuda" >"$tmp/out3" 2>"$tmp/log" && cmp -s "$tmp/out" "$tmp/out3"; then
		pass "the installed flipsim runs a CUDA program on its installed runtime"
	else
		fail "the installed flipsim runs a CUDA program on its installed runtime"
	fi
else
	echo "SKIP a CUDA program on the installed runtime (no nvcc)"
fi

# ---- the man page ---------------------------------------------------------------
man1=$prefix/share/man/man1/flipsim.1
missing=""
for c in $("$flipsim" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && !/^  / { on = 0 }'); do
	grep -qx "\.SS $c" "$man1" || missing="$missing $c"
	"$flipsim" "$c" --help | head -n 1 | sed 's/^usage: //' >"$tmp/usage"
	grep -qF -- "$(cat "$tmp/usage")" "$man1" || missing="$missing $c(usage)"
done
if [ -z "$missing" ]; then pass "the man page has every command and its usage"
else : >"$tmp/log"; fail "the man page lacks:$missing"; fi
if command -v groff >/dev/null; then
	if groff -man -Tutf8 -ww -z "$man1" >"$tmp/log" 2>&1 && [ ! -s "$tmp/log" ]; then pass "groff renders the man page without warnings"
	else fail "groff renders the man page without warnings"; fi
else
	echo "SKIP man page rendering (no groff here)"
fi

# ---- bash completion ------------------------------------------------------------
# complete WORDS...: what the completion offers for the last word.
complete_words() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _flipsim; printf "%s\n" "${COMPREPLY[@]}"' \
		complete "$prefix/share/bash-completion/completions/flipsim" "$@"
}
comp_has() { # NAME WANT WORDS...
	local name=$1 want=$2
	shift 2
	complete_words "$@" >"$tmp/log" 2>&1
	if grep -qx -- "$want" "$tmp/log"; then pass "completion: $name"; else fail "completion: $name (no '$want')"; fi
}
comp_has "commands" "merge" "$flipsim" me
comp_has "run's options" "--shard" "$flipsim" run --sh
comp_has "GPU presets" "tesla_c2050" "$flipsim" exec --gpu tes
comp_has "register modes" "alloc" "$flipsim" profile --regs al

echo "install-test: $([ $failures -eq 0 ] && echo "all passed" || echo "$failures failed")"
[ $failures -eq 0 ]
