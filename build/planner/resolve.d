build/planner/resolve.o: planner/resolve.c planner/planner.h \
 planner/../cli/scenario.h planner/../cli/../catalog/catalog.h \
 planner/../cli/../catalog/../sim/xmem.h planner/../sim/sim.h \
 planner/../sim/xmem.h planner/resolve.h
planner/planner.h:
planner/../cli/scenario.h:
planner/../cli/../catalog/catalog.h:
planner/../cli/../catalog/../sim/xmem.h:
planner/../sim/sim.h:
planner/../sim/xmem.h:
planner/resolve.h:
