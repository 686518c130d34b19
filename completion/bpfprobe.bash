# bash completion for bpfprobe
_bpfprobe()
{
	local cur prev cmds
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	cmds="load resolve vars funcs list unload monitor help"
	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W "$cmds" -- "$cur"))
		return
	fi
	case ${COMP_WORDS[1]} in
	load)
		case $prev in
		-p|--pid) COMPREPLY=($(compgen -W "$(ps -eo pid=)" -- "$cur")); return ;;
		--pin) return ;;
		esac
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "-p --pid -a -v --json --quiet-meta --no-map-dump --pin --replace" -- "$cur"))
		else
			COMPREPLY=($(compgen -f -X '!*.@(o|c)' -- "$cur") $(compgen -d -- "$cur"))
		fi
		;;
	resolve|vars|funcs)
		[[ $cur == -* ]] && COMPREPLY=($(compgen -W "--json" -- "$cur")) ||
			COMPREPLY=($(compgen -f -- "$cur"))
		;;
	list)
		COMPREPLY=($(compgen -W "--json --stats" -- "$cur"))
		;;
	monitor)
		COMPREPLY=($(compgen -W "--json --duration --map" -- "$cur"))
		;;
	unload)
		COMPREPLY=($(compgen -W "--all $(ls /sys/fs/bpf/bpfprobe 2>/dev/null)" -- "$cur"))
		;;
	esac
}
complete -F _bpfprobe bpfprobe
