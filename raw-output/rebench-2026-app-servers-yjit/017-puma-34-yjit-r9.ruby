/opt/ruby-3.4-yjit/bin/ruby; YJIT on
