package main

import (
	"time"

	"github.com/Shopify/toxiproxy/v2/toxics"
)

// MicrosecondLatencyToxic passes every chunk on Latency microseconds after the chunk arrived
// at the proxy: {"type": "latency_us", "attributes": {"latency": 250}}.
//
// Upstream's latency toxic waits on Go's runtime timers, which an idle server fires when its
// network poller next wakes: up to about a millisecond late. So it works in whole milliseconds,
// and even those overshoot by a varying amount. This toxic waits for the bulk of a delay on a
// Go timer (interruptible, holding no thread) and for the last stretch with a thread-blocking
// sleep to an absolute deadline (sleep_linux.go): a chunk leaves a near-constant few tens of
// microseconds after its deadline, which the Lab's calibration subtracts. It never spins: the
// proxy shares its CPUs with PostgreSQL and the JVM.
type MicrosecondLatencyToxic struct {
	Latency int64 `json:"latency"`
}

// handover is how long before a deadline the Go timer hands over to the precise sleep: Go's
// timers fire up to about a millisecond late, so 2 ms leaves room for that.
const handover = 2 * time.Millisecond

// GetBufferSize lets chunks queue while earlier ones wait, as upstream's latency toxic does, so
// the delay does not limit the bandwidth.
func (t *MicrosecondLatencyToxic) GetBufferSize() int {
	return 1024
}

func (t *MicrosecondLatencyToxic) Pipe(stub *toxics.ToxicStub) {
	delay := time.Duration(t.Latency) * time.Microsecond
	for {
		select {
		case <-stub.Interrupt:
			return
		case c := <-stub.Input:
			if c == nil {
				stub.Close()
				return
			}
			deadline := c.Timestamp.Add(delay)
			if !waitUntil(deadline, stub.Interrupt) {
				stub.Output <- c // interrupted (the toxics are changing): pass it on, drop nothing
				return
			}
			c.Timestamp = deadline // a toxic after this one counts from here
			stub.Output <- c
		}
	}
}

// waitUntil returns at deadline, or false as soon as interrupt fires during the Go timer part.
func waitUntil(deadline time.Time, interrupt <-chan struct{}) bool {
	if bulk := time.Until(deadline) - handover; bulk > 0 {
		timer := time.NewTimer(bulk)
		select {
		case <-timer.C:
		case <-interrupt:
			timer.Stop()
			return false
		}
	}
	sleepUntil(deadline)
	return true
}
