# grading/lab5/lab.mk: lab 5's make fragment (the Makefile includes every
# grading/lab*/lab.mk).
# Lab 5: the benchmark's host programs (C), the guest's accountant (static,
# libbpf, with the kit's count of bpf_loop calls), and the measurements.
LAB5 := $(WORK)/lab5
LAB5_TOOLS := $(BIN)/bench-read $(BIN)/bench-plot $(BIN)/bench-judge
host-tools: $(LAB5_TOOLS)
$(BIN)/bench-judge: grading/lab5/bench-judge.c grading/pipeline/ktap.h $(REGISTRY) | $(BIN)
	$(CC) $(CFLAGS) -o $@ $< grading/pipeline/registry.c -lm
$(BIN)/bench-%: grading/lab5/bench-%.c | $(BIN)
	$(CC) $(CFLAGS) -o $@ $< -lm
lab5-tools: $(LAB5_TOOLS) $(LAB5)/lab5-account
$(LAB5)/lab5-account: grading/lab5/bench-account.c grading/lab5/loop_count.h grading/guest/guest.c grading/guest/guest.h \
		$(LAB5)/loop_count.skel.h
	$(CC) $(CFLAGS) -static -Igrading/guest -I$(LAB5) -o $@ grading/lab5/bench-account.c grading/guest/guest.c \
		-lbpf -lelf -lz -lzstd
$(LAB5)/loop_count.bpf.o: grading/lab5/loop_count.bpf.c grading/lab5/loop_count.h
	@mkdir -p $(dir $@)
	clang $(BPF_CFLAGS) -c $< -o $@
$(LAB5)/loop_count.skel.h: $(LAB5)/loop_count.bpf.o
	bpftool gen skeleton $< name loop_count >$@.tmp && mv $@.tmp $@
.PHONY: bench-loop bench lab5-tools
bench-loop: ## sweep the bpf_loop benchmark over nr_loops and threads (REFS='a b': commits; BENCH=mine: your benchmark)
	@grading/lab5/bench-loop $(foreach r,$(REFS) $(REF),--ref $(r)) $(if $(filter mine,$(BENCH)),--tree $(WORK)/linux)
bench: ## the report: our verifier and bpf_loop figures beside the seed's (work/bench/report.md)
	@grading/lab5/bench-report
