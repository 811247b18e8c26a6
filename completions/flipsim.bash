# bash completion for flipsim (installed by `make install` as
# share/bash-completion/completions/flipsim). Commands come from `flipsim
# --help`, each command's options from `flipsim COMMAND --help`, GPU presets
# from `flipsim exec --help`, so the completion follows the binary it
# completes; arguments complete to the files each command takes.
_flipsim()
{
	local cur prev cmd i
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	local bin=${COMP_WORDS[0]}
	cmd=""
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	if [ -z "$cmd" ]; then
		local cmds
		cmds=$("$bin" --help 2>/dev/null | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && !/^  / { on = 0 }')
		COMPREPLY=($(compgen -W "$cmds --help --version" -- "$cur"))
		return
	fi
	case $prev in
	--gpu)
		local presets
		presets=$("$bin" exec --help 2>/dev/null | sed -n 's/.*presets: *//p' | tr -d ',')
		COMPREPLY=($(compgen -W "$presets" -- "$cur") $(compgen -f -X '!*.json' -- "$cur"))
		return ;;
	--regs)
		COMPREPLY=($(compgen -W "ptx alloc unalloc" -- "$cur"))
		return ;;
	--db | --protection)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--dump | --svg | --csv)
		COMPREPLY=($(compgen -d -- "$cur"))
		return ;;
	esac
	if [[ $cur == -* ]]; then
		local opts
		opts=$("$bin" "$cmd" --help 2>/dev/null | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		return
	fi
	case $cmd in
	run) COMPREPLY=($(compgen -f -X '!*.json' -- "$cur")) ;;
	status | report | merge) COMPREPLY=($(compgen -f -X '!*.db' -- "$cur")) ;;
	exec | profile) COMPREPLY=($(compgen -f -- "$cur")) ;;
	esac
	[ ${#COMPREPLY[@]} -eq 0 ] && COMPREPLY=($(compgen -d -- "$cur"))
}
complete -o filenames -o bashdefault -F _flipsim flipsim
