#!/bin/bash
rm -rf "${HOME:?}"/*
