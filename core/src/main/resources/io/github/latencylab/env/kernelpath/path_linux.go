//go:build linux

package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// linux/if_tun.h's offload flags (TUNSETOFFLOAD), not in the x/sys version this module uses
const (
	tunFCsum = 0x01
	tunFTso4 = 0x02
	tunFTso6 = 0x04
)

const (
	tunName     = "kp0" // in each namespace of our own: no clash with anything
	mtu         = 1500  // Ethernet's: MSS 1448 with TCP timestamps
	dialTimeout = 30 * time.Second
)

// RFC 2544's benchmarking range: addresses of no real network, and they never leave our namespaces
var (
	clientAddr = []byte{198, 18, 0, 1}
	serverAddr = []byte{198, 18, 0, 2}
	netmask    = []byte{255, 255, 255, 0}
)

func init() {
	// runs on the main thread (Go locks init to it), which lives as long as the process
	_ = unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(syscall.SIGTERM), 0, 0, 0)
}

// namespace is a network namespace of ours, kept alive by fd (its /proc/thread-self/ns/net).
type namespace struct {
	name string
	fd   int
	tun  int
}

type path struct {
	config
	client, server *namespace
	front          net.Listener // in the namespace we were started in
	back           net.Listener // in the server namespace
	up, down       *line        // client to server, server to client
	facts          string
	warned         int32
	mu             sync.Mutex
	middles        map[*net.TCPConn]string // the middle leg's open sockets: "client" or "server"
}

func start(c config) (running, error) {
	if _, err := os.Stat("/dev/net/tun"); err != nil {
		return nil, errors.New("no /dev/net/tun: load the tun module (modprobe tun), or give the container --device /dev/net/tun")
	}
	p := &path{config: c, middles: map[*net.TCPConn]string{}}
	var err error
	if p.client, err = newNamespace("client", clientAddr, c); err != nil {
		return nil, err
	}
	if p.server, err = newNamespace("server", serverAddr, c); err != nil {
		return nil, err
	}
	clientFacts, err := p.client.facts()
	if err != nil {
		return nil, err
	}
	serverFacts, err := p.server.facts()
	if err != nil {
		return nil, err
	}
	if clientFacts != serverFacts {
		clientFacts = "client: " + clientFacts + "; server: " + serverFacts
	}
	var uname unix.Utsname
	_ = unix.Uname(&uname)
	p.facts = fmt.Sprintf("kernel %s, %s, MTU %d", unix.ByteSliceToString(uname.Release[:]), clientFacts, mtu)

	p.up = newLine(&oneWay, c.queue, func(b []byte) error { return write(p.server.tun, b) })
	p.down = newLine(&oneWay, c.queue, func(b []byte) error { return write(p.client.tun, b) })
	for _, l := range []struct {
		from *namespace
		line *line
	}{{p.client, p.up}, {p.server, p.down}} {
		go p.carry(l.from, l.line)
		go func(l *line) {
			if err := l.run(); err != nil {
				fail("writing to a TUN device: " + err.Error())
			}
		}(l.line)
	}

	err = p.server.in(func() error {
		p.back, err = net.Listen("tcp4", net.IP(serverAddr).String()+":0")
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("listening in the server namespace: %v", err)
	}
	if p.front, err = net.Listen("tcp", c.listen); err != nil {
		return nil, fmt.Errorf("-listen %s: %v", c.listen, err)
	}
	go p.acceptFront()
	go p.acceptBack()
	return p, nil
}

func (p *path) address() string {
	return p.front.Addr().String()
}

func (p *path) describe() string {
	return fmt.Sprintf("%s, RTT %v", p.facts, time.Duration(2*atomic.LoadInt64(&oneWay)))
}

func (p *path) stats() string {
	var tunDrops, retransmits [2]string
	for i, ns := range []*namespace{p.client, p.server} {
		tunDrops[i], retransmits[i] = "?", "?"
		_ = ns.in(func() error {
			tunDrops[i] = procField("/proc/thread-self/net/dev", tunName+":", 12)
			retransmits[i] = snmp("Tcp:", "RetransSegs")
			return nil
		})
	}
	return fmt.Sprintf("passed %d %d drops %d %d tun-drops %s %s retransmits %s %s",
		atomic.LoadUint64(&p.up.passed), atomic.LoadUint64(&p.down.passed),
		atomic.LoadUint64(&p.up.drops), atomic.LoadUint64(&p.down.drops),
		tunDrops[0], tunDrops[1], retransmits[0], retransmits[1])
}

// track lists c until the returned func is called.
func (p *path) track(c net.Conn, side string) func() {
	tcp := c.(*net.TCPConn)
	p.mu.Lock()
	p.middles[tcp] = side
	p.mu.Unlock()
	return func() {
		p.mu.Lock()
		delete(p.middles, tcp)
		p.mu.Unlock()
	}
}

// tcp is the kernel's TCP_INFO of each open socket of the middle leg: what its windows are now
// (rcv_ssthresh: the most it lets its peer send, before autotuning grows it).
func (p *path) tcp() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var sockets []string
	for c, side := range p.middles {
		raw, err := c.SyscallConn()
		var info *unix.TCPInfo
		if err == nil {
			err = raw.Control(func(fd uintptr) {
				info, err = unix.GetsockoptTCPInfo(int(fd), unix.IPPROTO_TCP, unix.TCP_INFO)
			})
		}
		if err != nil || info == nil {
			continue // closing
		}
		sockets = append(sockets, fmt.Sprintf("%s %s cwnd %d ssthresh %d unacked %d mss %d rtt_us %d rttvar_us %d rto_us %d retrans %d rcv_ssthresh %d",
			side, c.LocalAddr(), info.Snd_cwnd, info.Snd_ssthresh, info.Unacked, info.Snd_mss, info.Rtt, info.Rttvar, info.Rto, info.Total_retrans, info.Rcv_ssthresh))
	}
	if len(sockets) == 0 {
		return "none"
	}
	sort.Strings(sockets)
	return strings.Join(sockets, "; ")
}

// carry reads the packets the kernel sends out of from's TUN device onto the line.
func (p *path) carry(from *namespace, l *line) {
	buf := make([]byte, 1<<17) // a virtio-net header and up to 64 kB of segments
	for {
		n, err := unix.Read(from.tun, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			fail("reading the " + from.name + " namespace's TUN device: " + err.Error())
		}
		if !l.arrive(append([]byte(nil), buf[:n]...), time.Now()) && atomic.CompareAndSwapInt32(&p.warned, 0, 1) {
			fmt.Fprintf(os.Stderr, "kernel-path: the line's queue (%d packets) is full: dropping packets (counted in stats); raise -queue\n", p.queue)
		}
	}
}

func write(fd int, b []byte) error {
	for {
		_, err := unix.Write(fd, b)
		if err != unix.EINTR {
			return err
		}
	}
}

// acceptFront relays each connection to the loopback port through a socket of the client
// namespace, across the line, to the server namespace's listener.
func (p *path) acceptFront() {
	to := p.back.Addr().String()
	for {
		c, err := p.front.Accept()
		if err != nil {
			fail("accepting on " + p.address() + ": " + err.Error())
		}
		go func() {
			var middle net.Conn
			err := p.client.in(func() (err error) {
				middle, err = net.DialTimeout("tcp4", to, dialTimeout)
				return err
			})
			if err != nil {
				fmt.Fprintln(os.Stderr, "kernel-path: across the line to "+to+": "+err.Error())
				c.Close()
				return
			}
			defer p.track(middle, "client")()
			relay(c, middle)
		}()
	}
}

// acceptBack relays each connection that crossed the line to the target.
func (p *path) acceptBack() {
	for {
		c, err := p.back.Accept()
		if err != nil {
			fail("accepting in the server namespace: " + err.Error())
		}
		go func() {
			t, err := net.DialTimeout("tcp", p.target, dialTimeout)
			if err != nil {
				fmt.Fprintln(os.Stderr, "kernel-path: -target "+p.target+": "+err.Error())
				c.Close()
				return
			}
			defer p.track(c, "server")()
			relay(c, t)
		}()
	}
}

// relay copies both ways; an end of one direction is passed on as such (FIN), so a client that
// half-closes is seen to, and both sockets close once both directions ended.
func relay(a, b net.Conn) {
	var both sync.WaitGroup
	both.Add(2)
	copyHalf := func(dst, src net.Conn) {
		defer both.Done()
		_, _ = io.Copy(dst, src)
		if tcp, ok := dst.(*net.TCPConn); ok {
			_ = tcp.CloseWrite()
		}
	}
	go copyHalf(a, b)
	go copyHalf(b, a)
	both.Wait()
	a.Close()
	b.Close()
}

// onThread runs fn on an OS thread of its own that ends with it: fn may change the thread's
// namespace, and no other goroutine ever runs there (Go ends a goroutine's locked thread when the
// goroutine returns without unlocking it; threads it starts meanwhile come from a clean one).
func onThread(fn func() error) error {
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked, on purpose
		done <- fn()
	}()
	return <-done
}

// in runs fn in ns: sockets fn creates belong to ns, wherever they are used later.
func (ns *namespace) in(fn func() error) error {
	return onThread(func() error {
		if err := unix.Setns(ns.fd, unix.CLONE_NEWNET); err != nil {
			return fmt.Errorf("entering the %s namespace: %v", ns.name, err)
		}
		return fn()
	})
}

// newNamespace makes a network namespace with lo up, the TUN device at addr and the sysctls
// of c. The namespace is unnamed: it goes when the process does.
func newNamespace(name string, addr []byte, c config) (*namespace, error) {
	ns := &namespace{name: name}
	err := onThread(func() error {
		if err := unix.Unshare(unix.CLONE_NEWNET); err != nil {
			if err == unix.EPERM {
				return errors.New("creating a network namespace needs root (CAP_SYS_ADMIN): unshare: " + err.Error())
			}
			return errors.New("unshare(CLONE_NEWNET): " + err.Error())
		}
		fd, err := unix.Open("/proc/thread-self/ns/net", unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			return err
		}
		ns.fd = fd
		if err := setSysctls(c); err != nil {
			return err
		}
		if ns.tun, err = openTun(); err != nil {
			return err
		}
		return configure(addr, c.txQueueLen)
	})
	if err != nil {
		return nil, err
	}
	return ns, nil
}

func openTun() (int, error) {
	fd, err := unix.Open("/dev/net/tun", unix.O_RDWR|unix.O_CLOEXEC, 0)
	if err != nil {
		if err == unix.EACCES || err == unix.EPERM {
			return -1, errors.New("opening /dev/net/tun needs root (CAP_NET_ADMIN): " + err.Error())
		}
		return -1, errors.New("/dev/net/tun: " + err.Error())
	}
	ifr, err := unix.NewIfreq(tunName)
	if err != nil {
		return -1, err
	}
	// with a virtio-net header, the kernel hands over up to 64 kB of a connection's segments
	// at once and takes them whole on the other side, as a NIC's segmentation offload and a
	// receiver's GRO do: TCP still sends MSS-sized segments (its window counts them), but the
	// line moves a burst in one read and one write instead of one per 1,448 B
	ifr.SetUint16(unix.IFF_TUN | unix.IFF_NO_PI | unix.IFF_VNET_HDR)
	if err := unix.IoctlIfreq(fd, unix.TUNSETIFF, ifr); err != nil {
		unix.Close(fd)
		return -1, errors.New("creating a TUN device (TUNSETIFF): " + err.Error())
	}
	if err := unix.IoctlSetInt(fd, unix.TUNSETOFFLOAD, tunFCsum|tunFTso4|tunFTso6); err != nil {
		unix.Close(fd)
		return -1, errors.New("turning on the TUN device's segmentation offload (TUNSETOFFLOAD): " + err.Error())
	}
	return fd, nil
}

// configure brings lo up and the TUN device up at addr/24, MTU 1500 (the /24 routes the peer).
func configure(addr []byte, txQueueLen int) error {
	s, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(s)
	ioctl := func(dev string, req uint, what string, set func(*unix.Ifreq) error) error {
		ifr, err := unix.NewIfreq(dev)
		if err == nil && req == unix.SIOCSIFFLAGS {
			err = unix.IoctlIfreq(s, unix.SIOCGIFFLAGS, ifr)
		}
		if err == nil {
			err = set(ifr)
		}
		if err == nil {
			err = unix.IoctlIfreq(s, req, ifr)
		}
		if err != nil {
			return fmt.Errorf("setting %s of %s: %v", what, dev, err)
		}
		return nil
	}
	up := func(ifr *unix.Ifreq) error { ifr.SetUint16(ifr.Uint16() | unix.IFF_UP); return nil }
	value := func(v uint32) func(*unix.Ifreq) error {
		return func(ifr *unix.Ifreq) error { ifr.SetUint32(v); return nil }
	}
	address := func(a []byte) func(*unix.Ifreq) error {
		return func(ifr *unix.Ifreq) error { return ifr.SetInet4Addr(a) }
	}
	for _, step := range []struct {
		dev  string
		req  uint
		what string
		set  func(*unix.Ifreq) error
	}{
		{"lo", unix.SIOCSIFFLAGS, "up", up},
		{tunName, unix.SIOCSIFMTU, "MTU", value(mtu)},
		{tunName, unix.SIOCSIFTXQLEN, "txqueuelen", value(uint32(txQueueLen))},
		{tunName, unix.SIOCSIFADDR, "address", address(addr)},
		{tunName, unix.SIOCSIFNETMASK, "netmask", address(netmask)},
		{tunName, unix.SIOCSIFFLAGS, "up", up},
	} {
		if err := ioctl(step.dev, step.req, step.what, step.set); err != nil {
			return err
		}
	}
	return nil
}

const ipv4 = "/proc/sys/net/ipv4/"

// setSysctls sets the current thread's namespace's TCP sysctls (/proc/sys/net is the calling
// thread's namespace's).
func setSysctls(c config) error {
	if c.congestionControl != "" {
		if err := os.WriteFile(ipv4+"tcp_congestion_control", []byte(c.congestionControl), 0); err != nil {
			allowed := strings.TrimSpace(read(ipv4 + "tcp_allowed_congestion_control"))
			if errors.Is(err, unix.ENOENT) {
				return fmt.Errorf("-congestion-control %s: not in this kernel; a network namespace may pick one of net.ipv4.tcp_allowed_congestion_control: %s", c.congestionControl, allowed)
			}
			return fmt.Errorf("-congestion-control %s: a network namespace may only pick one of net.ipv4.tcp_allowed_congestion_control: %s", c.congestionControl, allowed)
		}
	}
	idle := "0"
	if c.slowStartAfterIdle {
		idle = "1"
	}
	if err := os.WriteFile(ipv4+"tcp_slow_start_after_idle", []byte(idle), 0); err != nil {
		return fmt.Errorf("setting net.ipv4.tcp_slow_start_after_idle: %v", err)
	}
	return nil
}

// facts says what TCP runs in ns, read back from the namespace itself.
func (ns *namespace) facts() (string, error) {
	var facts string
	err := ns.in(func() error {
		facts = fmt.Sprintf("congestion control %s, tcp_wmem %s, tcp_rmem %s, slow_start_after_idle %s",
			read(ipv4+"tcp_congestion_control"), read(ipv4+"tcp_wmem"), read(ipv4+"tcp_rmem"),
			read(ipv4+"tcp_slow_start_after_idle"))
		return nil
	})
	return facts, err
}

// read is a /proc file's words joined by single spaces, or "?".
func read(file string) string {
	b, err := os.ReadFile(file)
	if err != nil {
		return "?"
	}
	return strings.Join(strings.Fields(string(b)), " ")
}

// procField is the n-th word (0: the first) of the line of file that starts with key, or "?".
func procField(file, key string, n int) string {
	f, err := os.Open(file)
	if err != nil {
		return "?"
	}
	defer f.Close()
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		fields := strings.Fields(lines.Text())
		if len(fields) > n && fields[0] == key {
			return fields[n]
		}
	}
	return "?"
}

// snmp is a counter of /proc/thread-self/net/snmp: a header line, then a line of values.
func snmp(protocol, counter string) string {
	b, err := os.ReadFile("/proc/thread-self/net/snmp")
	if err != nil {
		return "?"
	}
	lines := strings.Split(string(b), "\n")
	for i := 0; i+1 < len(lines); i++ {
		names, values := strings.Fields(lines[i]), strings.Fields(lines[i+1])
		if len(names) > 0 && names[0] == protocol && len(values) == len(names) {
			for j, name := range names {
				if name == counter {
					if _, err := strconv.ParseUint(values[j], 10, 64); err == nil {
						return values[j]
					}
				}
			}
		}
	}
	return "?"
}
