package main

import (
	"fmt"
	"sort"
	"sync/atomic"
	"testing"
	"time"
)

type departure struct {
	data string
	at   time.Time
}

// started runs a line of the given capacity whose packets leave into the returned channel.
func started(t *testing.T, oneWay *int64, capacity int) (*line, <-chan departure) {
	t.Helper()
	out := make(chan departure, 10000)
	l := newLine(oneWay, capacity, func(b []byte) error {
		out <- departure{string(b), time.Now()}
		return nil
	})
	go l.run()
	t.Cleanup(l.close)
	return l, out
}

func TestEveryPacketLeavesInOrderAtItsDeadlineNotBefore(t *testing.T) {
	for _, delay := range []time.Duration{0, 500 * time.Microsecond, 3 * time.Millisecond, 10 * time.Millisecond} {
		oneWay := int64(delay)
		l, out := started(t, &oneWay, 1000)
		arrived := make([]time.Time, 200)
		for i := range arrived {
			arrived[i] = time.Now()
			l.arrive([]byte(fmt.Sprint(i)), arrived[i])
			if i%20 == 0 {
				time.Sleep(time.Millisecond) // bursts and gaps, as TCP sends
			}
		}
		late := make([]time.Duration, len(arrived))
		for i := range arrived {
			d := <-out
			if d.data != fmt.Sprint(i) {
				t.Fatalf("delay %v: packet %d came out as %s: out of order", delay, i, d.data)
			}
			late[i] = d.at.Sub(arrived[i]) - delay
			if late[i] < 0 {
				t.Fatalf("delay %v: packet %d left %v before its deadline", delay, i, -late[i])
			}
			if late[i] > 100*time.Millisecond {
				t.Fatalf("delay %v: packet %d left %v after its deadline", delay, i, late[i])
			}
		}
		sort.Slice(late, func(i, j int) bool { return late[i] < late[j] })
		t.Logf("delay %v: after the deadline p50 %v, p99 %v", delay, late[len(late)/2], late[len(late)*99/100])
	}
}

func TestAShorterDelayNeverLetsAPacketOvertakeOneAheadOfIt(t *testing.T) {
	oneWay := int64(50 * time.Millisecond)
	l, out := started(t, &oneWay, 10)
	start := time.Now()
	l.arrive([]byte("first"), start)
	atomic.StoreInt64(&oneWay, 0)
	l.arrive([]byte("second"), time.Now())
	first, second := <-out, <-out
	if first.data != "first" || second.data != "second" {
		t.Fatalf("left as %s, %s", first.data, second.data)
	}
	if first.at.Sub(start) < 50*time.Millisecond {
		t.Fatalf("the first left after %v, before its 50 ms", first.at.Sub(start))
	}
	// the new delay counts for what arrives from now on
	atomic.StoreInt64(&oneWay, int64(5*time.Millisecond))
	arrived := time.Now()
	l.arrive([]byte("third"), arrived)
	if third := <-out; third.at.Sub(arrived) < 5*time.Millisecond {
		t.Fatalf("the third left after %v, before the new 5 ms", third.at.Sub(arrived))
	}
}

func TestAFullQueueDropsAndCountsRatherThanBlocking(t *testing.T) {
	oneWay := int64(time.Hour)
	l := newLine(&oneWay, 2, func([]byte) error { return nil }) // not running: nothing leaves
	kept := 0
	for i := 0; i < 5; i++ {
		if l.arrive([]byte{byte(i)}, time.Now()) {
			kept++
		}
	}
	if kept != 2 || atomic.LoadUint64(&l.drops) != 3 {
		t.Fatalf("kept %d, counted %d drops; want 2 kept and 3 drops", kept, l.drops)
	}
}
