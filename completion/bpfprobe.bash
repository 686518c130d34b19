# bash completion for bpfprobe. Each command's options come from its own
# --help (so they are exactly the ones it accepts); after `load OBJ` or a
# `--` (load, trace), the words are the workload's command line.
_bpfprobe_opts()
{
	"$1" "$2" --help 2>/dev/null |
		sed -n 's/^ *\(-[A-Za-z]\), \(--[a-z][-a-z]*\).*/\1 \2/p; s/^ *\(--[a-z][-a-z]*\).*/\1/p'
}

_bpfprobe()
{
	local cur prev cmd bin i obj=0
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	bin=${COMP_WORDS[0]}
	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W "load trace resolve vars funcs markers list cat unload monitor help --version --help" -- "$cur"))
		return
	fi
	cmd=${COMP_WORDS[1]}
	# load: the first word that is not an option (or an option's argument)
	# is the object; what follows it, or a --, is the workload
	# trace: SPECs are no command; only a -- starts the workload
	if [ "$cmd" = load ] || [ "$cmd" = trace ]; then
		for ((i = 2; i < COMP_CWORD; i++)); do
			case ${COMP_WORDS[i]} in
			--) obj=$((i + 1)); break ;;
			-p|--pid|-o|--output|--perf-pages|--pin|--vmlinux|--cflags|-I|--include|-D|--define|--strlen)
				i=$((i + 1)) ;;
			-*) ;;
			*) [ "$cmd" = load ] && { obj=$((i + 1)); break; } ;;
			esac
		done
		if [ "$obj" -gt 0 ] && [ "$COMP_CWORD" -ge "$obj" ]; then
			if [ "$COMP_CWORD" -eq "$obj" ] || [ "${COMP_WORDS[obj]}" = -- ]; then
				[ "${COMP_WORDS[obj]}" = -- ] && obj=$((obj + 1))
			fi
			if [ "$COMP_CWORD" -eq "$obj" ]; then
				COMPREPLY=($(compgen -c -- "$cur") $(compgen -f -- "$cur"))
			elif declare -F _command_offset >/dev/null; then
				_command_offset "$obj"
			else
				COMPREPLY=($(compgen -f -- "$cur"))
			fi
			return
		fi
	fi
	case $prev in
	-p|--pid)
		COMPREPLY=($(compgen -W "$(ps -eo pid= 2>/dev/null)" -- "$cur"))
		return ;;
	--pin|--perf-pages|--cflags|-D|--define|-d|--duration|--stats|-m|--map|--strlen)
		return ;;
	-o|--output|--vmlinux|-I|--include)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_bpfprobe_opts "$bin" "$cmd")" -- "$cur"))
		return
	fi
	case $cmd in
	load|resolve)
		COMPREPLY=($(compgen -f -X '!*.@(o|c)' -- "$cur") $(compgen -d -- "$cur")) ;;
	vars|funcs|markers)
		COMPREPLY=($(compgen -f -- "$cur")) ;;
	cat|unload)
		COMPREPLY=($(compgen -W "$(ls "${BPFPROBE_PIN_ROOT:-/sys/fs/bpf/bpfprobe}" 2>/dev/null)" -- "$cur")) ;;
	help)
		COMPREPLY=($(compgen -W "load trace resolve vars funcs markers list cat unload monitor" -- "$cur")) ;;
	esac
}
complete -F _bpfprobe bpfprobe
