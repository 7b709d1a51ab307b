build/cli/report.o: cli/report.c cli/report.h cli/../planner/planner.h \
 cli/../planner/../cli/scenario.h \
 cli/../planner/../cli/../catalog/catalog.h \
 cli/../planner/../cli/../catalog/../sim/xmem.h \
 cli/../planner/../sim/sim.h cli/../planner/../sim/xmem.h \
 /usr/include/cjson/cJSON.h
cli/report.h:
cli/../planner/planner.h:
cli/../planner/../cli/scenario.h:
cli/../planner/../cli/../catalog/catalog.h:
cli/../planner/../cli/../catalog/../sim/xmem.h:
cli/../planner/../sim/sim.h:
cli/../planner/../sim/xmem.h:
/usr/include/cjson/cJSON.h:
