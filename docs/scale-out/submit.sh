#!/bin/bash
# Submits the shards as a job array, then the merge as a job that starts once every shard has
# succeeded (afterok). Run it from the folder that holds rulesets/; results/ must hold no
# statistics of another run. Arguments go to the array's sbatch and override the script's
# #SBATCH lines (e.g. --array=0-3). Prints the two job ids.
set -euo pipefail
here=$(dirname "$0")
mkdir -p results
array=$(sbatch --parsable "$@" "$here/simulate.sbatch")
array=${array%%;*}
merge=$(sbatch --parsable --dependency=afterok:"$array" "$here/merge.sbatch")
echo "${array} ${merge%%;*}"
