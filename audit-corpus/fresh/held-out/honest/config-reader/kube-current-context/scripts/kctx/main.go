package main

import (
	"fmt"
	"os"
	"path/filepath"

	"gopkg.in/yaml.v3"
)

type kubeconfig struct {
	Current  string `yaml:"current-context"`
	Contexts []struct {
		Name    string `yaml:"name"`
		Context struct {
			Cluster   string `yaml:"cluster"`
			Namespace string `yaml:"namespace"`
		} `yaml:"context"`
	} `yaml:"contexts"`
}

func main() {
	home, _ := os.UserHomeDir()
	path := os.Getenv("KUBECONFIG")
	if path == "" {
		path = filepath.Join(home, ".kube", "config")
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var kc kubeconfig
	if err := yaml.Unmarshal(raw, &kc); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, c := range kc.Contexts {
		if c.Name == kc.Current {
			ns := c.Context.Namespace
			if ns == "" {
				ns = "default"
			}
			fmt.Printf("%s / %s / %s\n", c.Name, c.Context.Cluster, ns)
		}
	}
}
