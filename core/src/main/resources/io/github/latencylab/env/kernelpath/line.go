package main

import (
	"sync/atomic"
	"time"
)

// handover is how long before a deadline the Go timer hands over to the precise sleep: Go's
// timers fire up to about a millisecond late, so 2 ms leaves room for that.
const handover = 2 * time.Millisecond

// line is one direction of the delay line: every packet leaves no sooner than its arrival plus
// the one-way delay in force when it arrived, and in arrival order (a packet never overtakes
// one ahead of it, even when the delay has just been made shorter). It holds packets in a
// queue, not a link: no bandwidth limit, no loss while the queue has room; a packet that finds
// it full is dropped and counted, never silently.
type line struct {
	oneWay *int64 // nanoseconds; shared by both directions, changed at run time
	queue  chan packet
	out    func([]byte) error
	passed uint64 // atomic
	drops  uint64 // atomic
}

type packet struct {
	due  time.Time
	data []byte
}

func newLine(oneWay *int64, capacity int, out func([]byte) error) *line {
	return &line{oneWay: oneWay, queue: make(chan packet, capacity), out: out}
}

// arrive queues data (the line keeps it) that arrived at now; false when the queue was full and
// the packet was dropped.
func (l *line) arrive(data []byte, now time.Time) bool {
	select {
	case l.queue <- packet{now.Add(time.Duration(atomic.LoadInt64(l.oneWay))), data}:
		return true
	default:
		atomic.AddUint64(&l.drops, 1)
		return false
	}
}

// run passes the packets on, each at its deadline, until the queue is closed or out fails.
func (l *line) run() error {
	for p := range l.queue {
		if bulk := time.Until(p.due) - handover; bulk > 0 {
			time.Sleep(bulk)
		}
		sleepUntil(p.due)
		if err := l.out(p.data); err != nil {
			return err
		}
		atomic.AddUint64(&l.passed, 1)
	}
	return nil
}

func (l *line) close() {
	close(l.queue)
}
