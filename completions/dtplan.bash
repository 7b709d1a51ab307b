# bash completion for dtplan.  Installed by `make install` as
# $(PREFIX)/share/bash-completion/completions/dtplan; or: source completions/dtplan.bash
_dtplan()
{
    local cur prev opts
    COMPREPLY=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=
    [ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD-1]}
    opts="--json --csv -o --output --trace --report --save-json --catalog --seed --steps -q --quiet -h --help --version"

    # dtplan plan: the options of dtplan less --version, and --top N.
    # Other subcommands with options of their own complete files only.
    if [ "$COMP_CWORD" -gt 1 ]; then
        case ${COMP_WORDS[1]} in
            plan)
                opts="${opts% --version} --top"
                [ "$prev" = --top ] && return 0
                ;;
            compute)
                case $prev in
                    --precision)
                        COMPREPLY=($(compgen -W "fp32 tf32 fp16 bf16 fp8 fp32_strict auto" -- "$cur")) ;;
                    --attention)
                        COMPREPLY=($(compgen -W "flash unfused flash_triton cudnn cudnn_9.10 cudnn_9.13" -- "$cur")) ;;
                    --memory-format)
                        COMPREPLY=($(compgen -W "nchw nhwc" -- "$cur")) ;;
                    --amp)
                        COMPREPLY=($(compgen -W "autocast pure" -- "$cur")) ;;
                    --kernels)
                        COMPREPLY=($(compgen -W "eager fused" -- "$cur")) ;;
                    --optimizer)
                        COMPREPLY=($(compgen -W "fused foreach per_tensor" -- "$cur")) ;;
                    --fp8-recipe)
                        COMPREPLY=($(compgen -W "delayed current mxfp8 nvfp4" -- "$cur")) ;;
                    --expert-mlp)
                        COMPREPLY=($(compgen -W "fused grouped" -- "$cur")) ;;
                    --catalog)
                        COMPREPLY=($(compgen -d -- "$cur")) ;;
                    -o|--output)
                        COMPREPLY=($(compgen -f -- "$cur")) ;;
                    --model|--gpu|--batch|--seq|--ep|--measured) ;;
                    *)
                        COMPREPLY=($(compgen -W "--model --gpu --precision --batch --seq --attention
                            --memory-format --amp --kernels --optimizer --fp8-recipe --fp8-attention --expert-mlp --ep --measured
                            --catalog --json -o --output -h --help" -- "$cur")) ;;
                esac
                return 0
                ;;
            collectives)
                case $prev in
                    --link)
                        COMPREPLY=($(compgen -W "nvswitch nvlink pcie" -- "$cur")) ;;
                    --algo)
                        COMPREPLY=($(compgen -W "ring tree nvls nvls_tree pat collnet_direct collnet_chain
                            allpairs" -- "$cur")) ;;
                    --coll)
                        COMPREPLY=($(compgen -W "all_reduce all_gather reduce_scatter all_to_all" -- "$cur")) ;;
                    --proto)
                        COMPREPLY=($(compgen -W "LL LL128 Simple" -- "$cur")) ;;
                    --fabric)
                        COMPREPLY=($(compgen -W "ib ib-sharp roce efa-p3dn efa-p4d efa-p5 efa-p5en
                            efa-p6 efa-p6-b300 efa-p6e gpudirect-tcpx gpudirect-tcpxo tcp" -- "$cur")) ;;
                    --catalog)
                        COMPREPLY=($(compgen -d -- "$cur")) ;;
                    -o|--output)
                        COMPREPLY=($(compgen -f -- "$cur")) ;;
                    --instance|--gpu|--gpus-per-node|--nvlink-gbs|--net-gbps|--nics|--nodes|-b|--min-bytes|-e|--max-bytes|-f|--step-factor) ;;
                    *)
                        COMPREPLY=($(compgen -W "--instance --gpu --gpus-per-node --link --nvlink-gbs
                            --net-gbps --nics --efa --fabric --nodes -b --min-bytes -e --max-bytes -f
                            --step-factor --coll --algo --proto --catalog --json -o --output -h --help" -- "$cur")) ;;
                esac
                return 0
                ;;
            catalog)
                if [ "$COMP_CWORD" -eq 2 ]; then
                    COMPREPLY=($(compgen -W "list storage import" -- "$cur"))
                elif [ "$prev" = --catalog ] || [ "$prev" = -o ]; then
                    COMPREPLY=($(compgen -f -- "$cur"))
                elif [[ $cur == -* ]]; then
                    if [ "${COMP_WORDS[2]}" = import ]; then
                        COMPREPLY=($(compgen -W "-o --catalog -h --help" -- "$cur"))
                    elif [ "${COMP_WORDS[2]}" = storage ]; then
                        COMPREPLY=($(compgen -W "--cloud --catalog --json -o -h --help" -- "$cur"))
                    else
                        COMPREPLY=($(compgen -W "--gpu --cloud --region --catalog --json -o -h --help" -- "$cur"))
                    fi
                elif [ "${COMP_WORDS[2]}" = import ]; then
                    COMPREPLY=($(compgen -f -- "$cur"))
                fi
                return 0
                ;;
            calibrate)
                if [[ $cur == -* ]]; then
                    COMPREPLY=($(compgen -W "--cpu --gpu --nccl --mpi --cmd --coll-cmd --coll-name
                        --coll-ranks --coll-hosts --minbytes --maxbytes --stepfactor --quick --seed
                        --instance --resume -o --output -h --help" -- "$cur"))
                elif [ "$prev" = --coll-name ]; then
                    COMPREPLY=($(compgen -W "allreduce allgather reducescatter broadcast" -- "$cur"))
                else
                    COMPREPLY=($(compgen -f -- "$cur"))
                fi
                return 0
                ;;
        esac
    fi
    case $prev in
        -o|--output)
            COMPREPLY=($(compgen -f -- "$cur"))
            return 0
            ;;
        --trace|--save-json)
            COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur"))
            return 0
            ;;
        --report)
            COMPREPLY=($(compgen -f -X '!*.html' -- "$cur") $(compgen -d -- "$cur"))
            return 0
            ;;
        --catalog)
            COMPREPLY=($(compgen -f -- "$cur"))    # a catalog directory, or SkyPilot's vms.csv
            return 0
            ;;
        --seed|--steps)
            return 0
            ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        return 0
    fi
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "run calibrate plan compute collectives catalog" -- "$cur"))
    fi
    COMPREPLY+=($(compgen -f -X '!*.yaml' -- "$cur") $(compgen -f -X '!*.yml' -- "$cur")
                $(compgen -d -- "$cur"))
    return 0
}
complete -o filenames -F _dtplan dtplan
