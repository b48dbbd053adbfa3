import DocentCore

/// The console's words in the guide's six interface languages (`Language.uiLanguages`, in that
/// order: en, es, zh, zh-hant, ko, fr). Kept beside the console, not in `Resources/strings`,
/// because the guide never shows them (the strings test checks the guide's keys only).
enum ConsoleStrings {
    static let languages = Language.uiLanguages

    /// key → one text per language, in `languages` order.
    static let table: [String: [String]] = [
        "console": ["Staff console", "Consola del personal", "员工控制台", "員工控制台", "직원 콘솔", "Console du personnel"],
        "skip": ["Skip to content", "Ir al contenido", "跳到内容", "跳到內容", "본문으로 건너뛰기", "Aller au contenu"],
        "sections": ["Sections", "Secciones", "栏目", "欄目", "섹션", "Sections"],
        "queue": ["Moderation", "Moderación", "审核", "審核", "검토", "Modération"],
        "featured": ["Featured", "Destacados", "精选", "精選", "추천", "À la une"],
        "announcements": ["Announcements", "Avisos", "公告", "公告", "공지", "Annonces"],
        "pulse": ["Museum pulse", "Pulso del museo", "博物馆动态", "博物館動態", "박물관 현황", "Pouls du musée"],
        "audit": ["Audit log", "Registro de auditoría", "审计日志", "稽核日誌", "감사 기록", "Journal d’audit"],
        "visitors": ["Visitors", "Visitantes", "访客", "訪客", "방문객", "Visiteurs"],
        "signIn": ["Sign in", "Iniciar sesión", "登录", "登入", "로그인", "Se connecter"],
        "signOut": ["Sign out", "Cerrar sesión", "退出", "登出", "로그아웃", "Se déconnecter"],
        "name": ["Name (empty: the staff token)", "Nombre (vacío: el token del personal)", "名称（留空：员工令牌）", "名稱（留空：員工權杖）", "이름 (비우면 직원 토큰)", "Nom (vide : le jeton du personnel)"],
        "password": ["Password or staff token", "Contraseña o token del personal", "密码或员工令牌", "密碼或員工權杖", "비밀번호 또는 직원 토큰", "Mot de passe ou jeton du personnel"],
        "badSignIn": ["That name and password do not match.", "El nombre y la contraseña no coinciden.", "名称与密码不匹配。", "名稱與密碼不符。", "이름과 비밀번호가 맞지 않습니다.", "Ce nom et ce mot de passe ne correspondent pas."],
        "locked": ["Too many failed sign-ins. Try again in {s} s.", "Demasiados intentos fallidos. Vuelva a intentarlo en {s} s.", "登录失败次数过多。请 {s} 秒后再试。", "登入失敗次數過多。請 {s} 秒後再試。", "로그인 실패가 너무 많습니다. {s}초 후 다시 시도하세요.", "Trop d’échecs. Réessayez dans {s} s."],
        "badForm": ["This form has expired or did not come from the console. Reload the page and try again.", "Este formulario caducó o no vino de la consola. Recargue la página.", "此表单已过期或并非来自控制台。请刷新页面后重试。", "此表單已過期或並非來自控制台。請重新整理頁面後再試。", "이 양식은 만료되었거나 콘솔에서 온 것이 아닙니다. 새로 고친 뒤 다시 시도하세요.", "Ce formulaire a expiré ou ne vient pas de la console. Rechargez la page."],
        "queuePages": ["Pages of the queue", "Páginas de la cola", "待审队列分页", "待審佇列分頁", "대기열 페이지", "Pages de la file"],
        "queueNext": ["Next 100 →", "Siguientes 100 →", "后 100 条 →", "後 100 則 →", "다음 100개 →", "100 suivantes →"],
        "queueFirst": ["← Back to the oldest", "← Volver a las más antiguas", "← 回到最早的", "← 回到最早的", "← 가장 오래된 것으로", "← Retour aux plus anciennes"],
        "waiting": ["{n} notes waiting, oldest first.", "{n} notas en espera, las más antiguas primero.", "{n} 条留言待审，最早的在前。", "{n} 則留言待審，最早的在前。", "검토 대기 메모 {n}개, 오래된 순.", "{n} notes en attente, les plus anciennes d’abord."],
        "empty": ["Nothing waits for a decision.", "Nada espera una decisión.", "没有待处理的内容。", "沒有待處理的內容。", "결정할 항목이 없습니다.", "Rien n’attend de décision."],
        "keys": ["Keys: j next, k previous, h hide, r keep.", "Teclas: j siguiente, k anterior, h ocultar, r conservar.", "按键：j 下一条，k 上一条，h 隐藏，r 保留。", "按鍵：j 下一則，k 上一則，h 隱藏，r 保留。", "키: j 다음, k 이전, h 숨기기, r 유지.", "Touches : j suivante, k précédente, h masquer, r garder."],
        "hide": ["Hide", "Ocultar", "隐藏", "隱藏", "숨기기", "Masquer"],
        "keep": ["Keep", "Conservar", "保留", "保留", "유지", "Garder"],
        "restore": ["Restore", "Restaurar", "恢复", "恢復", "복원", "Rétablir"],
        "pin": ["Pin", "Fijar", "置顶", "置頂", "고정", "Épingler"],
        "banSure": ["Ban {visitor}? Their visible notes are hidden and their writes refused until the ban is lifted.", "¿Vetar a {visitor}? Sus notas visibles se ocultan y sus escrituras se rechazan hasta que se levante el veto.", "封禁 {visitor}？其可见留言将被隐藏，写入将被拒绝，直至解除封禁。", "封鎖 {visitor}？其可見留言將被隱藏，寫入將被拒絕，直至解除封鎖。", "{visitor}을(를) 차단할까요? 보이는 메모가 숨겨지고 차단이 풀릴 때까지 쓰기가 거부됩니다.", "Bannir {visitor} ? Ses notes visibles sont masquées et ses écritures refusées jusqu’à la levée du bannissement."],
        "banYes": ["Yes, ban", "Sí, vetar", "确认封禁", "確認封鎖", "차단합니다", "Oui, bannir"],
        "ban": ["Ban the writer", "Vetar al autor", "封禁作者", "封鎖作者", "작성자 차단", "Bannir l’auteur"],
        "unban": ["Lift the ban", "Levantar el veto", "解除封禁", "解除封鎖", "차단 해제", "Lever le bannissement"],
        "erase": ["Erase all of this visitor’s data", "Borrar todos los datos de este visitante", "清除该访客的全部数据", "清除該訪客的全部資料", "이 방문객의 데이터 모두 삭제", "Effacer toutes les données de ce visiteur"],
        "eraseConfirm": ["Yes, erase (cannot be undone)", "Sí, borrar (no se puede deshacer)", "是，清除（无法撤销）", "是，清除（無法復原）", "예, 삭제 (되돌릴 수 없음)", "Oui, effacer (irréversible)"],
        "visitor": ["Visitor id", "Id del visitante", "访客 ID", "訪客 ID", "방문객 ID", "Identifiant du visiteur"],
        "reports": ["Reports", "Denuncias", "举报", "檢舉", "신고", "Signalements"],
        "reasonReported": ["reported", "denunciada", "被举报", "被檢舉", "신고됨", "signalée"],
        "reasonScore": ["hidden by votes", "oculta por votos", "因投票隐藏", "因投票隱藏", "투표로 숨김", "masquée par les votes"],
        "reasonRestored": ["restored, reported again", "restaurada y denunciada de nuevo", "已恢复，再次被举报", "已恢復，再次被檢舉", "복원 후 다시 신고됨", "rétablie puis signalée à nouveau"],
        "hiddenByStaff": ["Hidden by staff", "Ocultas por el personal", "已被员工隐藏", "已被員工隱藏", "직원이 숨김", "Masquées par le personnel"],
        "done": ["Done: {what} on note {note}.", "Hecho: {what} en la nota {note}.", "已完成：对留言 {note} {what}。", "已完成：對留言 {note} {what}。", "완료: 메모 {note}에 {what}.", "Fait : {what} sur la note {note}."],
        "conflict": ["Someone else decided first: {staff} set {decision} at {at}. Nothing was overwritten.", "Otra persona decidió antes: {staff} puso {decision} a las {at}. No se sobrescribió nada.", "已有他人先处理：{staff} 于 {at} 设为 {decision}。未覆盖任何内容。", "已有他人先處理：{staff} 於 {at} 設為 {decision}。未覆寫任何內容。", "다른 사람이 먼저 결정했습니다: {staff}님이 {at}에 {decision}(으)로 설정. 덮어쓰지 않았습니다.", "Quelqu’un a décidé avant vous : {staff} a choisi {decision} à {at}. Rien n’a été écrasé."],
        // One: the row `KEY.one`, taken when {n} is 1 (issue 44 #14: "1 notes waiting").
        "waiting.one": ["1 note waiting.", "1 nota en espera.", "1 条留言待审。", "1 則留言待審。", "검토 대기 메모 1개.", "1 note en attente."],
        "banned.one": ["Banned {visitor}: 1 note hidden, their writes refused.", "Vetado {visitor}: 1 nota oculta, sus escrituras rechazadas.", "已封禁 {visitor}：隐藏 1 条留言，拒绝其写入。", "已封鎖 {visitor}：隱藏 1 則留言，拒絕其寫入。", "{visitor} 차단: 메모 1개 숨김, 쓰기 거부.", "{visitor} banni : 1 note masquée, ses écritures refusées."],
        "banned": ["Banned {visitor}: {n} notes hidden, their writes refused.", "Vetado {visitor}: {n} notas ocultas, sus escrituras rechazadas.", "已封禁 {visitor}：隐藏 {n} 条留言，拒绝其写入。", "已封鎖 {visitor}：隱藏 {n} 則留言，拒絕其寫入。", "{visitor} 차단: 메모 {n}개 숨김, 쓰기 거부.", "{visitor} banni : {n} notes masquées, ses écritures refusées."],
        "unbanned": ["Ban lifted for {visitor}.", "Veto levantado para {visitor}.", "已解除 {visitor} 的封禁。", "已解除 {visitor} 的封鎖。", "{visitor} 차단 해제.", "Bannissement levé pour {visitor}."],
        "erased": ["Erased {visitor}: {what}.", "Borrado {visitor}: {what}.", "已清除 {visitor}：{what}。", "已清除 {visitor}：{what}。", "{visitor} 삭제: {what}.", "{visitor} effacé : {what}."],
        "bans": ["Banned visitors", "Visitantes vetados", "被封禁的访客", "被封鎖的訪客", "차단된 방문객", "Visiteurs bannis"],
        "none": ["None.", "Ninguno.", "无。", "無。", "없음.", "Aucun."],
        "subject": ["Subject", "Tema", "对象", "對象", "대상", "Sujet"],
        "tier": ["Tier (0–100, higher first)", "Nivel (0–100, mayor primero)", "级别（0–100，高者在前）", "級別（0–100，高者在前）", "등급 (0–100, 높은 것 먼저)", "Rang (0–100, le plus haut d’abord)"],
        "tagline": ["Tagline", "Lema", "标语", "標語", "문구", "Accroche"],
        "preview": ["In the guide", "En la guía", "导览中显示", "導覽中顯示", "가이드에서", "Dans le guide"],
        "save": ["Save", "Guardar", "保存", "儲存", "저장", "Enregistrer"],
        "saved": ["Saved {what}.", "Guardado {what}.", "已保存 {what}。", "已儲存 {what}。", "{what} 저장됨.", "{what} enregistré."],
        "from": ["From (museum time)", "Desde (hora del museo)", "开始（博物馆时间）", "開始（博物館時間）", "시작 (박물관 시간)", "Du (heure du musée)"],
        "until": ["Until (museum time)", "Hasta (hora del museo)", "结束（博物馆时间）", "結束（博物館時間）", "종료 (박물관 시간)", "Au (heure du musée)"],
        "addFeatured": ["Feature a subject", "Destacar un tema", "添加精选", "新增精選", "추천 추가", "Mettre un sujet à la une"],
        "id": ["Id", "Id", "ID", "ID", "ID", "Identifiant"],
        "patterns": ["Pages (one pattern a line, as gallery:2\\d\\d or tab:map)", "Páginas (un patrón por línea)", "页面（每行一个模式）", "頁面（每行一個模式）", "페이지 (한 줄에 패턴 하나)", "Pages (un motif par ligne)"],
        "matches": ["Pages this matches", "Páginas que coinciden", "匹配的页面", "符合的頁面", "일치하는 페이지", "Pages concernées"],
        "noMatch": ["No page of the museum matches.", "Ninguna página del museo coincide.", "没有匹配的页面。", "沒有符合的頁面。", "일치하는 페이지가 없습니다.", "Aucune page du musée ne correspond."],
        "checkPatterns": ["Show matching pages", "Mostrar páginas que coinciden", "显示匹配的页面", "顯示符合的頁面", "일치하는 페이지 보기", "Afficher les pages concernées"],
        "positions": ["Row positions (comma-separated; empty: first row)", "Posiciones (separadas por comas)", "行位置（逗号分隔）", "列位置（逗號分隔）", "행 위치 (쉼표로 구분)", "Positions (séparées par des virgules)"],
        "style": ["Style", "Estilo", "样式", "樣式", "스타일", "Style"],
        "card": ["Card in a list", "Tarjeta en una lista", "列表中的卡片", "清單中的卡片", "목록 속 카드", "Carte dans une liste"],
        "banner": ["Banner", "Banner", "横幅", "橫幅", "배너", "Bandeau"],
        "text": ["Text", "Texto", "文字", "文字", "텍스트", "Texte"],
        "today": ["Today", "Hoy", "今天", "今天", "오늘", "Aujourd’hui"],
        "visitCodeToday": [
            "Today’s visit code (for tickets):", "Código de visita de hoy (para las entradas):", "今天的参观码（印在门票上）：", "今天的參觀碼（印在門票上）：",
            "오늘의 관람 코드 (입장권용):", "Code de visite du jour (pour les billets) :",
        ],
        "last30": ["Last 30 days", "Últimos 30 días", "最近 30 天", "最近 30 天", "최근 30일", "30 derniers jours"],
        "plays": ["Plays", "Reproducciones", "播放", "播放", "재생", "Écoutes"],
        "reactions": ["Reactions", "Reacciones", "反应", "反應", "반응", "Réactions"],
        "notes": ["Notes", "Notas", "留言", "留言", "메모", "Notes"],
        "numbers": ["The numbers", "Las cifras", "具体数字", "具體數字", "숫자 보기", "Les chiffres"],
        "day": ["Day", "Día", "日期", "日期", "날짜", "Jour"],
        "csv": ["Download CSV", "Descargar CSV", "下载 CSV", "下載 CSV", "CSV 다운로드", "Télécharger le CSV"],
        "mostPlayed": ["Most played (30 days)", "Más reproducidos (30 días)", "播放最多（30 天）", "播放最多（30 天）", "가장 많이 재생 (30일)", "Les plus écoutés (30 jours)"],
        "bestLiked": ["Best liked", "Más gustados", "最受喜爱", "最受喜愛", "가장 좋아함", "Les plus aimés"],
        "abandoned": ["Where tours are abandoned (30 days)", "Dónde se abandonan los recorridos (30 días)", "导览中途放弃处（30 天）", "導覽中途放棄處（30 天）", "투어를 그만두는 곳 (30일)", "Où l’on abandonne les parcours (30 jours)"],
        "stop": ["Stop", "Parada", "站点", "站點", "정류장", "Étape"],
        "lost": ["Listeners lost after it", "Oyentes perdidos después", "之后流失的听众", "之後流失的聽眾", "이후 이탈한 청취자", "Auditeurs perdus ensuite"],
        "count": ["Count", "Cantidad", "数量", "數量", "수", "Nombre"],
        "when": ["When", "Cuándo", "时间", "時間", "시각", "Quand"],
        "who": ["Who", "Quién", "人员", "人員", "누가", "Qui"],
        "action": ["Action", "Acción", "操作", "操作", "작업", "Action"],
        "target": ["On", "Sobre", "对象", "對象", "대상", "Sur"],
        "before": ["Before", "Antes", "之前", "之前", "이전", "Avant"],
        "after": ["After", "Después", "之后", "之後", "이후", "Après"],
        "filter": ["Filter", "Filtrar", "筛选", "篩選", "필터", "Filtrer"],
        "search": ["Contains", "Contiene", "包含", "包含", "포함", "Contient"],
        "any": ["Any", "Cualquiera", "任意", "任意", "전체", "Tous"],
        "language": ["Language", "Idioma", "语言", "語言", "언어", "Langue"],
        "apply": ["Apply", "Aplicar", "应用", "套用", "적용", "Appliquer"],
        "signedInAs": ["Signed in as {name}", "Sesión de {name}", "已登录：{name}", "已登入：{name}", "{name}(으)로 로그인됨", "Connecté : {name}"],
        "notFound": ["There is no such page.", "No existe esa página.", "没有此页面。", "沒有此頁面。", "그런 페이지가 없습니다.", "Cette page n’existe pas."],
        "unavailable": ["The database cannot be reached just now: {why}", "No se puede acceder a la base de datos: {why}", "暂时无法连接数据库：{why}", "暫時無法連線資料庫：{why}", "지금은 데이터베이스에 연결할 수 없습니다: {why}", "La base de données est injoignable : {why}"],
        "badInput": ["Not saved: {why}", "No se guardó: {why}", "未保存：{why}", "未儲存：{why}", "저장되지 않음: {why}", "Non enregistré : {why}"],
        "chartOf": ["{what} per day, last 30 days", "{what} por día, últimos 30 días", "最近 30 天每日{what}", "最近 30 天每日{what}", "최근 30일 일별 {what}", "{what} par jour, 30 derniers jours"],
        "erasePrompt": ["Erase a visitor on request", "Borrar un visitante a petición", "应要求清除访客", "應要求清除訪客", "요청 시 방문객 삭제", "Effacer un visiteur sur demande"],
        "banPrompt": ["Ban a visitor", "Vetar a un visitante", "封禁访客", "封鎖訪客", "방문객 차단", "Bannir un visiteur"],
        "cells": ["{n} of {max} cells", "{n} de {max} celdas", "{n}/{max} 格", "{n}/{max} 格", "{n}/{max}칸", "{n} sur {max} cellules"],
    ]

    static func index(_ lang: Language) -> Int { languages.firstIndex(of: lang) ?? 0 }

    static func text(_ key: String, _ lang: Language, _ args: [String: String] = [:]) -> String {
        guard let row = (args["n"] == "1" ? table[key + ".one"] : nil) ?? table[key] else { return key }
        var s = row[min(index(lang), row.count - 1)]
        for (k, v) in args { s = s.replacingOccurrences(of: "{\(k)}", with: v) }
        return s
    }

    /// Every key in `lang`, for templates (`{{t.key}}`).
    static func all(_ lang: Language) -> [String: String] {
        let i = index(lang)
        var out: [String: String] = [:]
        for (k, row) in table { out[k] = row[min(i, row.count - 1)] }
        return out
    }

    /// The language a request asks for: `?lang=`, else the `docent_lang` cookie, else the
    /// first of `Accept-Language` the console has, else English.
    static func pick(query: String?, cookie: String?, accept: String?) -> Language {
        for tag in [query, cookie].compactMap({ $0 }) {
            if let l = Language.fromTag(tag), languages.contains(l) { return l }
        }
        for part in (accept ?? "").split(separator: ",") {
            let tag = part.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            if let l = Language.fromTag(tag), languages.contains(l) { return l }
        }
        return .english
    }
}
