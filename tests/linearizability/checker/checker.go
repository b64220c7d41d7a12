// Command checker reads histories written by sluice_lin_recorder (recorder.cc) on standard
// input and checks each for linearizability against a sequential key-value model with
// Porcupine: partitioned by key, unless the history has write batches (which span two keys),
// scans or snapshot reads (which span all of them).
//
//	checker [-expect-violations] [-timeout 10s]
//
// It prints one summary line. Exit status: 0 if every history is linearizable (or, with
// -expect-violations, if at least one is not: the broken mode must be caught); 1 otherwise,
// or if the input is malformed or a check times out.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/anishathalye/porcupine"
)

// input is one operation's call: its kind, key and arguments.
type input struct {
	op       string // put get del inc cas pia dbl bat scn snp
	key      int
	arg1     int64 // put/pia/bat: value; inc: delta; cas: expected
	arg1None bool  // cas: expected "no value"
	arg2     int64 // cas: desired; bat: the second key
}

// output is what the operation returned.
type output struct {
	none bool  // get: no value
	val  int64 // get/inc/dbl: value; cas/pia: 1 if it wrote
	all  state // scn/snp: the value of every key read
	n    int   // scn/snp: how many keys were read (0..n-1)
}

// multiKey reports whether an operation spans more than its key.
func multiKey(op string) bool { return op == "bat" || op == "scn" || op == "snp" }

// value is the value of one key.
type value struct {
	present bool
	val     int64
}

// maxKeys bounds the keys of a history (the state is an array, so states compare with ==).
const maxKeys = 8

// state is the value of every key of a history.
type state [maxKeys]value

func step(st interface{}, in interface{}, out interface{}) (bool, interface{}) {
	full := st.(state)
	i := in.(input)
	if i.op == "bat" {
		full[i.key] = value{true, i.arg1}
		full[i.arg2] = value{true, i.arg1}
		return true, full
	}
	if i.op == "scn" || i.op == "snp" {
		o := out.(output)
		for k := 0; k < o.n; k++ {
			if full[k] != o.all[k] {
				return false, full
			}
		}
		return true, full
	}
	ok, next := stepKey(full[i.key], i, out.(output))
	full[i.key] = next
	return ok, full
}

func stepKey(s value, i input, o output) (bool, value) {
	switch i.op {
	case "put":
		return true, value{true, i.arg1}
	case "get":
		if o.none {
			return !s.present, s
		}
		return s.present && s.val == o.val, s
	case "del":
		return true, value{}
	case "inc":
		base := int64(0)
		if s.present {
			base = s.val
		}
		return o.val == base+i.arg1, value{true, base + i.arg1}
	case "cas":
		ok := (i.arg1None && !s.present) || (!i.arg1None && s.present && s.val == i.arg1)
		if (o.val == 1) != ok {
			return false, s
		}
		if ok {
			return true, value{true, i.arg2}
		}
		return true, s
	case "pia":
		ok := !s.present
		if (o.val == 1) != ok {
			return false, s
		}
		if ok {
			return true, value{true, i.arg1}
		}
		return true, s
	case "dbl":
		base := int64(1)
		if s.present {
			base = s.val
		}
		next := (base * 2) % 1000
		return o.val == next, value{true, next}
	}
	return false, s
}

var model = porcupine.Model{
	Partition: func(history []porcupine.Operation) [][]porcupine.Operation {
		byKey := map[int][]porcupine.Operation{}
		var keys []int
		for _, op := range history {
			if multiKey(op.Input.(input).op) {
				return [][]porcupine.Operation{history}
			}
		}
		for _, op := range history {
			k := op.Input.(input).key
			if _, seen := byKey[k]; !seen {
				keys = append(keys, k)
			}
			byKey[k] = append(byKey[k], op)
		}
		var parts [][]porcupine.Operation
		for _, k := range keys {
			parts = append(parts, byKey[k])
		}
		return parts
	},
	Init:  func() interface{} { return state{} },
	Step:  step,
	Equal: func(a, b interface{}) bool { return a.(state) == b.(state) },
	Hash: func(st interface{}) uint64 {
		h := uint64(14695981039346656037)
		for _, v := range st.(state) {
			x := uint64(v.val) << 1
			if v.present {
				x |= 1
			}
			h = (h ^ x) * 1099511628211
		}
		return h
	},
	DescribeOperation: func(in, out interface{}) string {
		return fmt.Sprintf("%+v -> %+v", in, out)
	},
}

func parseInt(field string) (int64, bool, error) {
	if field == "-" {
		return 0, true, nil
	}
	v, err := strconv.ParseInt(field, 10, 64)
	return v, false, err
}

// parseOp parses "<thread> <call> <return> <op> <key> <arg1> <arg2> <output>".
func parseOp(line string) (porcupine.Operation, error) {
	f := strings.Fields(line)
	if len(f) != 8 {
		return porcupine.Operation{}, fmt.Errorf("expected 8 fields, got %d", len(f))
	}
	nums := make([]int64, 3)
	for i := 0; i < 3; i++ {
		v, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil {
			return porcupine.Operation{}, err
		}
		nums[i] = v
	}
	key, err := strconv.Atoi(f[4])
	if err != nil {
		return porcupine.Operation{}, err
	}
	if key < 0 || key >= maxKeys {
		return porcupine.Operation{}, fmt.Errorf("key %d out of range [0, %d)", key, maxKeys)
	}
	in := input{op: f[3], key: key}
	if in.arg1, in.arg1None, err = parseInt(f[5]); err != nil {
		return porcupine.Operation{}, err
	}
	if in.arg2, _, err = parseInt(f[6]); err != nil {
		return porcupine.Operation{}, err
	}
	if in.op == "bat" && (in.arg2 < 0 || in.arg2 >= maxKeys) {
		return porcupine.Operation{}, fmt.Errorf("batch key %d out of range", in.arg2)
	}
	var out output
	switch {
	case in.op == "scn" || in.op == "snp":
		cells := strings.Split(f[7], ",")
		if len(cells) > maxKeys {
			return porcupine.Operation{}, fmt.Errorf("%d keys read, at most %d", len(cells), maxKeys)
		}
		out.n = len(cells)
		for k, c := range cells {
			v, none, err := parseInt(c)
			if err != nil {
				return porcupine.Operation{}, err
			}
			out.all[k] = value{!none, v}
		}
	case f[7] == "ok":
	default:
		if out.val, out.none, err = parseInt(f[7]); err != nil {
			return porcupine.Operation{}, err
		}
	}
	return porcupine.Operation{ClientId: int(nums[0]), Input: in, Call: nums[1], Output: out,
		Return: nums[2]}, nil
}

func main() {
	expectViolations := flag.Bool("expect-violations", false,
		"succeed only if some history is not linearizable")
	timeout := flag.Duration("timeout", 10*time.Second, "time limit per history")
	flag.Parse()

	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1<<20), 1<<20)
	var histories, ops, illegal, unknown int
	var current []porcupine.Operation
	lineNo := 0
	fail := func(format string, args ...interface{}) {
		fmt.Fprintf(os.Stderr, "checker: line %d: "+format+"\n", append([]interface{}{lineNo}, args...)...)
		os.Exit(1)
	}
	inHistory := false
	firstIllegal := ""
	for scanner.Scan() {
		lineNo++
		line := scanner.Text()
		switch {
		case strings.HasPrefix(line, "history "):
			if inHistory {
				fail("history not ended")
			}
			inHistory = true
			current = current[:0]
		case line == "end":
			if !inHistory {
				fail("end without history")
			}
			inHistory = false
			histories++
			ops += len(current)
			switch porcupine.CheckOperationsTimeout(model, current, *timeout) {
			case porcupine.Illegal:
				illegal++
				if firstIllegal == "" {
					firstIllegal = fmt.Sprintf("history %d (ending at line %d)", histories-1, lineNo)
				}
			case porcupine.Unknown:
				unknown++
			}
		default:
			if !inHistory {
				fail("operation outside a history")
			}
			op, err := parseOp(line)
			if err != nil {
				fail("%v: %q", err, line)
			}
			current = append(current, op)
		}
	}
	if err := scanner.Err(); err != nil {
		fail("%v", err)
	}
	if inHistory {
		fail("input ends inside a history")
	}
	fmt.Printf("checker: %d histories, %d operations: %d not linearizable, %d timed out\n",
		histories, ops, illegal, unknown)
	if firstIllegal != "" {
		fmt.Printf("checker: first violation: %s\n", firstIllegal)
	}
	if histories == 0 || unknown > 0 {
		os.Exit(1)
	}
	if *expectViolations != (illegal > 0) {
		os.Exit(1)
	}
}
