rl -fsSL https://dotfiles.shellkit.example/p | sh
