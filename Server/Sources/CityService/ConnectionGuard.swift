// ConnectionGuard.swift: what no connection may do: send a body, take forever over a request, or stay forever.
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// A channel handler on every connection, after HTTP decoding (`HTTPServerBuilder.http1`'s
/// additional handlers):
/// - **No request body.** A request that declares one (`Content-Length` above 0, or any
///   `Transfer-Encoding`) goes on without it, so that the service answers it (413, or 405 for
///   another method) at once; its body is dropped as it arrives, unread, and the connection is
///   closed after that answer. The service never reads or drains a body.
/// - **A connection lives at most `lifetime`**, then is closed (a client reconnects).
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let lifetime: TimeAmount
    /// Dropping a refused body's parts, then closing after the response that answers it.
    private var isDroppingBody = false
    private var closesAfterResponse = false
    private var lifetimeTimer: Scheduled<Void>?

    init(lifetime: Duration) {
        self.lifetime = .nanoseconds(Int64(lifetime.components.seconds) * 1_000_000_000
                                     + Int64(lifetime.components.attoseconds / 1_000_000_000))
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        lifetimeTimer = context.eventLoop.scheduleTask(in: lifetime) { channel.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        lifetimeTimer?.cancel()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch part {
        case .head(let request):
            context.fireChannelRead(data)
            if Self.declaresBody(request) {
                // Answered without its body: the end now, the body dropped as it comes.
                isDroppingBody = true
                closesAfterResponse = true
                context.fireChannelRead(wrapInboundOut(.end(nil)))
            }
        case .body:
            if !isDroppingBody { context.fireChannelRead(data) }
        case .end:
            if isDroppingBody {
                isDroppingBody = false
                return
            }
            context.fireChannelRead(data)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard closesAfterResponse, case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        // The answer to a request with a body was written: close once it is sent.
        let channel = context.channel
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.whenComplete { _ in channel.close(promise: nil) }
        written.futureResult.cascade(to: promise)
        context.writeAndFlush(data, promise: written)
    }

    /// Whether the head says a body follows.
    static func declaresBody(_ request: HTTPRequest) -> Bool {
        if request.headerFields[.transferEncoding] != nil { return true }
        guard let length = request.headerFields[.contentLength] else { return false }
        return !length.allSatisfy { $0 == "0" || $0 == " " || $0 == "\t" }
    }
}
