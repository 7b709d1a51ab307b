# calibrate.mk - included by the Makefile: the GPU and NCCL parts of
# calibrate/ and the programs of the emulated multi-host tests.
#
# With nvcc under CUDA_HOME (default /usr/local/cuda) the GPU and NCCL parts
# are built from calibrate/cuda/*.cu against cuBLAS and NCCL (NCCL_HOME,
# default CUDA_HOME) into $(BUILD)/libdtplan-gpu.so, which dtplan loads when
# it runs them; otherwise calibrate/cuda/none.c stands in and both parts
# report themselves skipped.

CUDA_HOME ?= /usr/local/cuda
NCCL_HOME ?= $(CUDA_HOME)
NVCC      := $(wildcard $(CUDA_HOME)/bin/nvcc)

ifneq ($(NVCC),)
# The CUDA objects go into a shared object that dtplan loads only for the
# GPU and NCCL parts (calibrate/cuda/dtgpu.h, dl.c): no other run maps the
# CUDA libraries.
CUDA_OBJ  := $(patsubst %.cu,$(BUILD)/%.o,$(wildcard calibrate/cuda/*.cu))
GPU_SO    := $(BUILD)/libdtplan-gpu.so
calibrate_OBJ += $(BUILD)/calibrate/cuda/dl.o
CUDA_LIBDIRS := $(sort $(wildcard $(CUDA_HOME)/lib64) $(wildcard $(CUDA_HOME)/lib) $(wildcard $(NCCL_HOME)/lib64) $(wildcard $(NCCL_HOME)/lib))
calibrate_LIBS += -ldl
cli_LIBS  += -ldl
NVCCFLAGS ?= -O2 -std=c++17 -Xcompiler -Wall,-Wextra,-Werror,-fPIC -I$(NCCL_HOME)/include \
             $(filter -I%,$(PKG_CFLAGS))

$(BUILD)/calibrate/cuda/%.o: calibrate/cuda/%.cu calibrate/calib.h calibrate/sweep.h calibrate/hosts.h calibrate/cuda/gpu_common.h calibrate/cuda/nccl_coll.h calibrate/cuda/nccl_bench.h calibrate/cuda/dtgpu.h
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -c -o $@ $<

# -Bsymbolic: the object's calib_* forwarders (host.cu) stay its own.
$(GPU_SO): $(CUDA_OBJ)
	$(CC) -shared -Wl,-Bsymbolic -o $@ $^ $(foreach d,$(CUDA_LIBDIRS),-L$(d) -Wl,-rpath,$(d)) \
	    -lnccl -lcublas -lcudart $(PKG_LIBS) -lstdc++

$(BUILD)/calibrate/cuda/dl.o: CFLAGS += -DDTPLAN_GPU_LIBDIR='"$(PREFIX)/lib/dtplan"'
all: $(GPU_SO)
units: $(GPU_SO)
else
calibrate_OBJ += $(BUILD)/calibrate/cuda/none.o
endif

# Programs of tests/suite_netns.sh, built with the unit tests.
NETNS_BIN := $(BUILD)/netns/tcprate $(BUILD)/netns/calib_mpi_main $(BUILD)/netns/predict
units: $(NETNS_BIN)

$(BUILD)/netns/%: tests/netns/%.c $$(call ARCHIVES,$$(call layer_of,$$*))
	@mkdir -p $(dir $@)
	$(call LINK_PROG,$*)
