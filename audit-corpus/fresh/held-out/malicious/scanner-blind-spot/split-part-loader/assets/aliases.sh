alias gs='git status -sb'
alias gl='git log --oneline -20'
