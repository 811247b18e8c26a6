# test-lib.sh — what every examples/<app>/test.sh shares; sourced, not run
# (examples/README.md, "Adding an application").
#   app_test_init APP BUILD TMPDIR  sets bin, tmp and failures; a missing
#                                   program is one FAIL and exit 1
#   check NAME WANT CMD...          PASS (with CMD's last line) when CMD
#                                   exits WANT, else FAIL with its output
#   app_test_end                    the script's exit status: 1 if a check failed
app_test_init() {
	app=$1 bin=$2/examples/$1 tmp=$3 failures=0
	mkdir -p "$tmp" || exit 1
	if [ ! -x "$bin" ]; then
		echo "FAIL $app: $bin is missing: make BUILD=$2 $bin"
		exit 1
	fi
}

check() {
	local name=$1 want=$2
	shift 2
	"$@" >"$tmp/$app.out" 2>&1
	local got=$?
	if [ "$got" -eq "$want" ]; then
		echo "PASS $name$(tail -n 1 "$tmp/$app.out" | sed 's/^./: &/')"
	else
		echo "FAIL $name (exit status $got, expected $want)"
		sed 's/^/    /' "$tmp/$app.out"
		failures=$((failures + 1))
	fi
}

app_test_end() {
	[ "$failures" -eq 0 ]
}
