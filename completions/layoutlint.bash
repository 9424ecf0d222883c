# bash completion for layoutlint                           -*- shell-script -*-
# Options from layoutlint --help; after "struct" or "union", struct names
# from the index that "layoutlint --list BINARY" leaves in
# ${XDG_CACHE_HOME:-~/.cache}/layoutlint/BUILD-ID.names (run it once per
# binary: a vmlinux has thousands of names and no index of its own).

_layoutlint_binary()
{
    local i w
    # With --binary, the first one's FILE names the structs and every word is a NAME.
    for ((i = 1; i < COMP_CWORD - 1; i++)); do
        [[ ${COMP_WORDS[i]} == --binary ]] && { echo "${COMP_WORDS[i + 1]}"; return; }
    done
    for ((i = 1; i < COMP_CWORD; i++)); do
        w=${COMP_WORDS[i]}
        case $w in
            -r|--rules|--format|--cacheline|--decl-file|--cu|--size|--die|--srcdir|--prefix-map|--color|\
            --fail-level|--layout-change|--baseline|--write-baseline|--against|--diff|--reference-name|\
            --base-revision|--repository|--groups|--contains|\
            --audit|--btf-base|--import-net-cachelines|--net-cachelines|--config|--html|--source-url|--binary|--in|\
            --profile|--measured-hot|--measured-writes|--write-rules|--static-readers|--static-writers|\
            --prove-budget|--prove-source) ((i++)) ;;
            -*) ;;
            *) echo "$w"; return ;;
        esac
    done
}

# The names in index CACHE that start with PREFIX, into COMPREPLY. Not
# compgen -W: it expands $(...) and `...` in its word list, and the index
# holds whatever names the binary had. Only C identifiers are offered (a
# name that is not one cannot be asked for), matched as plain text.
_layoutlint_names()
{
    local name
    COMPREPLY=()
    while IFS= read -r name; do
        [[ $name =~ ^[A-Za-z_][A-Za-z0-9_]*$ && $name == "$2"* ]] && COMPREPLY+=("$name")
    done <"$1"
}

_layoutlint()
{
    local cur prev bin id cache
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}

    case $prev in
        -r|--rules|--baseline|--write-baseline|--against|--diff|--btf-base|--srcdir|--import-net-cachelines|--net-cachelines|--config|\
        --html|--binary|--profile|--write-rules|--prove-source)
            COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --format) COMPREPLY=($(compgen -W "text json sarif html patch mail" -- "$cur")); return ;;
        --color) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
        --fail-level) COMPREPLY=($(compgen -W "note warning error" -- "$cur")); return ;;
        --layout-change) COMPREPLY=($(compgen -W "off note warning error" -- "$cur")); return ;;
        --groups) COMPREPLY=($(compgen -W "auto off" -- "$cur")); return ;;
        struct|union)
            bin=$(_layoutlint_binary)
            if [[ -n $bin && -r $bin ]]; then
                id=$(readelf -n "$bin" 2>/dev/null | awk '/Build ID:/ {print $3; exit}')
                cache=${XDG_CACHE_HOME:-$HOME/.cache}/layoutlint/$id.names
                # Only a list the user owns, in a directory only the user can
                # write (as layoutlint trusts its cache): never another's names.
                [[ -n $id && -r $cache && -O $cache && -O ${cache%/*} &&
                   -z $(find "$cache" "${cache%/*}" -maxdepth 0 -perm /022 2>/dev/null) ]] &&
                    _layoutlint_names "$cache" "$cur"
            fi
            return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(layoutlint --help 2>/dev/null |
            grep -oE -- '--[a-z][a-z-]*=?|-[a-zA-Z],' | tr -d ',' | sort -u)" -- "$cur"))
        [[ ${COMPREPLY[*]} == *= ]] && compopt -o nospace
        return
    fi
    if [[ -z $(_layoutlint_binary) ]]; then
        COMPREPLY=($(compgen -f -- "$cur"))
    else
        COMPREPLY=($(compgen -W "struct union" -- "$cur"))
    fi
} &&
complete -F _layoutlint layoutlint
