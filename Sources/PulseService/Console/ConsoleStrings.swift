import PulseKit

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
        // The staff accounts page (issue 44 #14).
        "accounts": ["Staff accounts", "Cuentas del personal", "员工账户", "員工帳戶", "직원 계정", "Comptes du personnel"],
        "addAccount": ["Add an account", "Añadir una cuenta", "添加账户", "新增帳戶", "계정 추가", "Ajouter un compte"],
        "accountName": ["Account name (a-z, 0-9, . - _)", "Nombre de la cuenta (a-z, 0-9, . - _)", "账户名（a-z、0-9、. - _）", "帳戶名稱（a-z、0-9、. - _）", "계정 이름 (a-z, 0-9, . - _)", "Nom du compte (a-z, 0-9, . - _)"],
        "newPassword": ["New password (at least 10 characters)", "Nueva contraseña (al menos 10 caracteres)", "新密码（至少 10 个字符）", "新密碼（至少 10 個字元）", "새 비밀번호 (10자 이상)", "Nouveau mot de passe (10 caractères au moins)"],
        "role": ["Role", "Función", "角色", "角色", "역할", "Rôle"],
        "roleStaff": ["Staff", "Personal", "员工", "員工", "직원", "Personnel"],
        "roleAdmin": ["Staff who manages accounts", "Personal que gestiona cuentas", "可管理账户的员工", "可管理帳戶的員工", "계정을 관리하는 직원", "Personnel qui gère les comptes"],
        "added": ["added", "añadida el", "添加于", "新增於", "추가:", "ajouté le"],
        "sessionsOpen": ["{n} sessions open", "{n} sesiones abiertas", "{n} 个会话在线", "{n} 個工作階段在線", "열린 세션 {n}개", "{n} sessions ouvertes"],
        "sessionsOpen.one": ["1 session open", "1 sesión abierta", "1 个会话在线", "1 個工作階段在線", "열린 세션 1개", "1 session ouverte"],
        "thisIsYou": ["your account", "su cuenta", "您的账户", "您的帳戶", "내 계정", "votre compte"],
        "setPassword": ["Set the password", "Cambiar la contraseña", "设置密码", "設定密碼", "비밀번호 설정", "Changer le mot de passe"],
        "endSessions": ["End its sessions", "Cerrar sus sesiones", "结束其会话", "結束其工作階段", "세션 종료", "Fermer ses sessions"],
        "removeAccount": ["Remove the account", "Eliminar la cuenta", "删除账户", "刪除帳戶", "계정 삭제", "Supprimer le compte"],
        "cancel": ["Cancel", "Cancelar", "取消", "取消", "취소", "Annuler"],
        "endSessionsSure": ["End every session of {name}? They are signed out at once and must sign in again.", "¿Cerrar todas las sesiones de {name}? Se le desconecta al instante y debe volver a iniciar sesión.", "结束 {name} 的所有会话？其将立即退出，需要重新登录。", "結束 {name} 的所有工作階段？其將立即登出，需要重新登入。", "{name}의 모든 세션을 종료할까요? 즉시 로그아웃되며 다시 로그인해야 합니다.", "Fermer toutes les sessions de {name} ? Il ou elle est déconnecté(e) aussitôt et doit se reconnecter."],
        "endOwnSessionsSure": ["End every session of your own account {name}, this one too? You will have to sign in again.", "¿Cerrar todas las sesiones de su propia cuenta {name}, también esta? Tendrá que volver a iniciar sesión.", "结束您自己的账户 {name} 的所有会话（包括当前会话）？您需要重新登录。", "結束您自己的帳戶 {name} 的所有工作階段（包括目前這個）？您需要重新登入。", "내 계정 {name}의 모든 세션(이 세션 포함)을 종료할까요? 다시 로그인해야 합니다.", "Fermer toutes les sessions de votre compte {name}, celle-ci comprise ? Vous devrez vous reconnecter."],
        "removeSure": ["Remove the account {name}? It can no longer sign in; the audit log keeps what it did.", "¿Eliminar la cuenta {name}? Ya no podrá iniciar sesión; el registro de auditoría conserva lo que hizo.", "删除账户 {name}？该账户将无法再登录；审计日志保留其操作记录。", "刪除帳戶 {name}？該帳戶將無法再登入；稽核日誌保留其操作紀錄。", "{name} 계정을 삭제할까요? 더 이상 로그인할 수 없으며, 감사 기록에는 그 작업이 남습니다.", "Supprimer le compte {name} ? Il ne pourra plus se connecter ; le journal d’audit garde ce qu’il a fait."],
        "endYes": ["Yes, end them", "Sí, cerrarlas", "确认结束", "確認結束", "예, 종료합니다", "Oui, les fermer"],
        "removeYes": ["Yes, remove", "Sí, eliminar", "确认删除", "確認刪除", "예, 삭제합니다", "Oui, supprimer"],
        "notAllowed": ["Your account may not manage staff accounts.", "Su cuenta no puede gestionar cuentas del personal.", "您的账户无权管理员工账户。", "您的帳戶無權管理員工帳戶。", "내 계정은 직원 계정을 관리할 수 없습니다.", "Votre compte ne peut pas gérer les comptes du personnel."],
        "badAccountName": ["Not saved: an account name is 1 to 40 of a-z, 0-9, '.', '-' and '_'.", "No se guardó: un nombre de cuenta tiene de 1 a 40 caracteres entre a-z, 0-9, '.', '-' y '_'.", "未保存：账户名为 1 到 40 个 a-z、0-9、'.'、'-'、'_' 字符。", "未儲存：帳戶名稱為 1 到 40 個 a-z、0-9、'.'、'-'、'_' 字元。", "저장되지 않음: 계정 이름은 a-z, 0-9, '.', '-', '_' 중 1~40자입니다.", "Non enregistré : un nom de compte compte 1 à 40 caractères parmi a-z, 0-9, « . », « - » et « _ »."],
        "shortPassword": ["Not saved: a password needs at least 10 characters.", "No se guardó: la contraseña necesita al menos 10 caracteres.", "未保存：密码至少需要 10 个字符。", "未儲存：密碼至少需要 10 個字元。", "저장되지 않음: 비밀번호는 10자 이상이어야 합니다.", "Non enregistré : le mot de passe doit compter au moins 10 caractères."],
        "accountExists": ["Not saved: there is already an account {name}; set its password instead.", "No se guardó: ya existe la cuenta {name}; cambie su contraseña.", "未保存：已有账户 {name}；请改为设置其密码。", "未儲存：已有帳戶 {name}；請改為設定其密碼。", "저장되지 않음: {name} 계정이 이미 있습니다. 비밀번호를 설정하세요.", "Non enregistré : le compte {name} existe déjà ; changez plutôt son mot de passe."],
        "noAccount": ["There is no account {name}.", "No existe la cuenta {name}.", "没有账户 {name}。", "沒有帳戶 {name}。", "{name} 계정이 없습니다.", "Il n’y a pas de compte {name}."],
        "busy": ["Password work is busy just now: try again in a few seconds.", "El cálculo de contraseñas está ocupado: vuelva a intentarlo en unos segundos.", "密码处理繁忙：请几秒后再试。", "密碼處理繁忙：請幾秒後再試。", "지금은 비밀번호 처리가 바쁩니다. 몇 초 후 다시 시도하세요.", "Le traitement des mots de passe est occupé : réessayez dans quelques secondes."],
        "accountAdded": ["Added the account {name}.", "Cuenta {name} añadida.", "已添加账户 {name}。", "已新增帳戶 {name}。", "{name} 계정을 추가했습니다.", "Compte {name} ajouté."],
        "passwordSet": ["New password set for {name}; its sessions ended.", "Nueva contraseña para {name}; sus sesiones se cerraron.", "已为 {name} 设置新密码；其会话已结束。", "已為 {name} 設定新密碼；其工作階段已結束。", "{name}의 새 비밀번호를 설정했습니다. 세션이 종료되었습니다.", "Nouveau mot de passe pour {name} ; ses sessions sont fermées."],
        "sessionsEnded": ["Ended {n} sessions of {name}.", "Se cerraron {n} sesiones de {name}.", "已结束 {name} 的 {n} 个会话。", "已結束 {name} 的 {n} 個工作階段。", "{name}의 세션 {n}개를 종료했습니다.", "{n} sessions de {name} fermées."],
        "sessionsEnded.one": ["Ended 1 session of {name}.", "Se cerró 1 sesión de {name}.", "已结束 {name} 的 1 个会话。", "已結束 {name} 的 1 個工作階段。", "{name}의 세션 1개를 종료했습니다.", "1 session de {name} fermée."],
        "accountRemoved": ["Removed the account {name}.", "Cuenta {name} eliminada.", "已删除账户 {name}。", "已刪除帳戶 {name}。", "{name} 계정을 삭제했습니다.", "Compte {name} supprimé."],
        "noSelfRemove": ["You cannot remove your own account.", "No puede eliminar su propia cuenta.", "您不能删除自己的账户。", "您不能刪除自己的帳戶。", "내 계정은 삭제할 수 없습니다.", "Vous ne pouvez pas supprimer votre propre compte."],
        "lastManager": ["Not removed: {name} is the last account that may manage accounts.", "No se eliminó: {name} es la última cuenta que puede gestionar cuentas.", "未删除：{name} 是最后一个可管理账户的账户。", "未刪除：{name} 是最後一個可管理帳戶的帳戶。", "삭제되지 않음: {name}은(는) 계정을 관리할 수 있는 마지막 계정입니다.", "Non supprimé : {name} est le dernier compte qui peut gérer les comptes."],
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
