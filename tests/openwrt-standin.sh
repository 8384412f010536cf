# tests/openwrt-standin.sh — stand-ins for the OpenWrt shell functions
# contrib/openwrt/files/batsecd.init calls, sourced by tests/t_openwrt.sh
# under busybox ash.  Written from OpenWrt's documentation of UCI's shell
# API (/lib/functions.sh) and procd's (/lib/functions/procd.sh), not from
# their code:
#
#   config_load PKG       reads $UCI_DIR/PKG (UCI's file syntax is the same
#                         as `uci export`'s, which config_load evaluates)
#   config_get VAR SEC OPT [DEFAULT]     a list gives its items joined by
#                                         spaces
#   config_get_bool VAR SEC OPT [DEFAULT]
#   config_foreach FUNC TYPE              FUNC SECTION for each of TYPE
#   config_list_foreach SEC OPT FUNC      FUNC ITEM for each list item
#   procd_*               each call appended to $PROCD_LOG as one line
#   logger                appended to $LOGGER_LOG

_uci_sec=""
_uci_n=0
CONFIG_SECTIONS=""

config() {
	_uci_n=$((_uci_n + 1))
	_uci_sec=${2:-cfg$_uci_n}
	CONFIG_SECTIONS="$CONFIG_SECTIONS $_uci_sec"
	eval "CONFIG_${_uci_sec}_TYPE=\$1"
}

option() {
	eval "CONFIG_${_uci_sec}_$1=\$2"
}

list() {
	local len
	eval "len=\${CONFIG_${_uci_sec}_$1_LENGTH:-0}"
	len=$((len + 1))
	eval "CONFIG_${_uci_sec}_$1_LENGTH=$len"
	eval "CONFIG_${_uci_sec}_$1_ITEM$len=\$2"
	if [ "$len" -eq 1 ]; then
		eval "CONFIG_${_uci_sec}_$1=\$2"
	else
		eval "CONFIG_${_uci_sec}_$1=\"\$CONFIG_${_uci_sec}_$1 \$2\""
	fi
}

package() { :; }

config_load() {
	[ -f "$UCI_DIR/$1" ] || return 1
	. "$UCI_DIR/$1"
}

config_get() {
	local _v
	eval "_v=\${CONFIG_$2_$3-}"
	[ -z "$_v" ] && _v=${4-}
	eval "$1=\$_v"
}

config_get_bool() {
	local _b
	config_get _b "$2" "$3" "${4-}"
	case $_b in
	1|on|true|yes|enabled) _b=1 ;;
	0|off|false|no|disabled) _b=0 ;;
	*) _b=${4-} ;;
	esac
	eval "$1=\$_b"
}

config_foreach() {
	local f="$1" t="$2" s st
	for s in $CONFIG_SECTIONS; do
		eval "st=\$CONFIG_${s}_TYPE"
		[ "$st" = "$t" ] && "$f" "$s"
	done
	return 0
}

config_list_foreach() {
	local s="$1" o="$2" f="$3" len i=1 item
	eval "len=\${CONFIG_${s}_${o}_LENGTH:-0}"
	while [ "$i" -le "$len" ]; do
		eval "item=\$CONFIG_${s}_${o}_ITEM$i"
		"$f" "$item"
		i=$((i + 1))
	done
	return 0
}

procd_open_instance() { echo "open_instance${1:+ $*}" >>"$PROCD_LOG"; }
procd_set_param() { echo "set_param $*" >>"$PROCD_LOG"; }
procd_close_instance() { echo "close_instance" >>"$PROCD_LOG"; }
procd_add_reload_trigger() { echo "reload_trigger $*" >>"$PROCD_LOG"; }
logger() { echo "logger $*" >>"$LOGGER_LOG"; }
