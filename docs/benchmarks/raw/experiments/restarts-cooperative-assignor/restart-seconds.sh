#!/bin/bash
# restart-seconds.sh CASEDIR: time_lapse and POST p99/max by second relative to ready (samples by send/receipt time)
d=$1; ready=$(cat $d/ready-ms.txt); down=$(cat $d/down-ms.txt)
echo "down at $(( (down-ready)/1000 )) s relative to ready"
zcat $d/k6/samples.csv.gz | awk -F, -v r=$ready 'NR>1 { s=int(($2-r)/1000); if ($2<r) s=s-1; if (s<-20||s>20) next; k=$1" "s; n[k]++; v[k]=v[k]" "$3; if ($3>mx[k]) mx[k]=$3 }
 END { for (k in n) print k, n[k], mx[k] }' | sort -k1,1 -k2,2n | awk '{printf "%s s=%+d n=%d max=%.0f\n",$1,$2,$3,$4}' | column -c 200
