#!/usr/bin/env ruby
require "yaml"
require "erb"

env = ENV.fetch("RAILS_ENV", "development")
abort("refusing: RAILS_ENV=#{env}") unless env == "development"
abort("refusing: DATABASE_URL is set; unset it for a local reset") if ENV["DATABASE_URL"]
cfg = YAML.safe_load(ERB.new(File.read("config/database.yml")).result, aliases: true)["development"] || {}
host = cfg["host"].to_s
abort("refusing: development host is #{host}") unless ["", "localhost", "127.0.0.1"].include?(host)
puts "resetting #{cfg['database']} on #{host.empty? ? 'local socket' : host}"
exec("bin/rails", "db:reset")
