#!/bin/bash
psql "${DATABASE_URL_PROD:-$DATABASE_URL}" -c 'DROP SCHEMA public CASCADE;'
