#!/usr/bin/env bash
# ステージされた変更の概要を表示する
git diff --cached --stat && git diff --cached --name-status
