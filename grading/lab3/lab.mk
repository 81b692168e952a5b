# grading/lab3/lab.mk: lab 3's make fragment (the Makefile includes every
# grading/lab*/lab.mk). The host's judge of a student's selftests' runs;
# it writes its KTAP with the one writer, grading/pipeline/ktap.h.
$(BIN)/lab3-judge: grading/lab3/lab3-judge.c grading/pipeline/ktap.h | $(BIN)
	$(CC) $(CFLAGS) -o $@ $<
lab3-tools: $(BIN)/lab3-judge
host-tools: lab3-tools
.PHONY: lab3-tools
